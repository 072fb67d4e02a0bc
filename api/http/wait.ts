import type { Context } from 'koa';

/**
 * How long a request asks its answer to wait (run and wait, docs/runs.md#run-and-wait): the route's `?wait=` query
 * (already parsed to milliseconds by its zod schema) or else the RFC 7240 preference `Prefer: wait=<seconds>`,
 * capped at `maxMs`. A `Prefer` header that cannot be read is ignored, as RFC 7240 asks of preferences a server does
 * not understand; a bad `?wait=` is a 400 of the query's validation.
 */
export interface RequestedWait {
  /** 0: do not wait. */
  ms: number;
  /** Set when the wait came from `Prefer`: the `Preference-Applied` header to answer with. */
  preferenceApplied?: string;
}

/** The `wait` preference of a Prefer header, in milliseconds; null when there is none (or it is not a number). */
export function preferredWaitMs(header: string): number | null {
  for (const preference of header.split(',')) {
    const [token, ...rest] = (preference.split(';')[0] ?? '').split('=');
    if (token?.trim().toLowerCase() !== 'wait' || rest.length !== 1) continue;
    const value = rest[0]!.trim().replace(/^"(.*)"$/, '$1');
    if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  }
  return null;
}

export function requestedWait(ctx: Context, queryWaitMs: number | undefined, maxMs: number): RequestedWait {
  if (queryWaitMs !== undefined) return { ms: Math.min(queryWaitMs, maxMs) };
  const preferred = preferredWaitMs(ctx.get('prefer'));
  if (preferred === null) return { ms: 0 };
  const ms = Math.min(preferred, maxMs);
  return { ms, preferenceApplied: `wait=${Math.floor(ms / 1000)}` };
}
