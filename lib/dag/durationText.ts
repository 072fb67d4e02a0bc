import { z } from 'zod';
import { parseDuration } from '../duration';

/**
 * A duration written as text ("30s", "1h30m", "7d"; lib/duration.ts) between two bounds, as the definition's
 * fields take it: dead-letter retention, rate-limit periods, flow control periods. `range` names the bounds in
 * the message ("1m to 365d").
 */
export function durationBetween(minMs: number, maxMs: number, range: string, examples = '10s, 1m or 1h') {
  return z
    .string()
    .max(20)
    .refine((text) => {
      try {
        const ms = parseDuration(text);
        return ms >= minMs && ms <= maxMs;
      } catch {
        return false;
      }
    }, `a duration from ${range}, such as ${examples}`);
}
