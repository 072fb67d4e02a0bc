import { z } from 'zod';
import { parseDuration } from '../duration';
import { parseRateRule } from '../rateRule';

/** Schemas of environment values: each takes the text (undefined when unset) and gives the typed value. */

export const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? def : v === 'true' || v === '1' || v === 'yes'));

export const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).optional().default(def);

/** An integer with no default: undefined when unset. */
export const optionalInt = (min: number, max?: number) => {
  const base = z.coerce.number().int().min(min);
  return (max === undefined ? base : base.max(max)).optional();
};

export const text = (def: string) => z.string().optional().default(def);

/** Text or undefined when unset. */
export const optionalText = () => z.string().optional();

export const url = () => z.string().url().optional();

/** A duration written `500ms`, `30s`, `15m`, `7d`..., in milliseconds. */
export const duration = (def: string) =>
  z
    .string()
    .optional()
    .default(def)
    .transform((v, ctx) => {
      try {
        return parseDuration(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** A rate limit written as `10/15m` (hits per window) or `off` (null). */
export const rate = (def: string) =>
  z
    .string()
    .optional()
    .default(def)
    .transform((v, ctx) => {
      try {
        return parseRateRule(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** Comma-separated items, trimmed, empty ones dropped. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
}

/** A comma-separated list (empty by default). */
export const list = () => text('').transform(splitList);

const GIB = 1024 ** 3;
/** A size in whole gibibytes, as bytes. */
export const gibibytes = (def: number) => int(def, 0).transform((gb) => gb * GIB);

/** Unset as null (a transform for optional settings whose absence means something). */
export const orNull = <T>(value: T | undefined): T | null => value ?? null;
