import { parseDuration } from './duration';

/** A rate limit: at most `limit` hits per `windowMs`. Written in configuration as `10/15m` (or `off`). */
export interface RateRule {
  limit: number;
  windowMs: number;
}

export function parseRateRule(text: string): RateRule | null {
  const trimmed = text.trim();
  if (trimmed === 'off') return null;
  const match = /^(\d+)\s*\/\s*(\S+)$/.exec(trimmed);
  if (!match) throw new Error(`"${text}" is not a rate limit (use forms like 10/15m, 100/1h, or off)`);
  const limit = Number(match[1]);
  const windowMs = parseDuration(match[2]!);
  if (limit < 1 || windowMs < 1000) {
    throw new Error(`"${text}": the limit must be at least 1 and the window at least 1s`);
  }
  return { limit, windowMs };
}
