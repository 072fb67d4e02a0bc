import type { ErrorDetail } from './errors';

/**
 * How much of a client's own input an error answer repeats. A refused value, key or name is named so the client can
 * find it, but a 1 MB field name echoed back made every refusal a 1 MB answer (and work to build it). Pure and
 * free of imports with side effects: lib/dag (bundled into workflow code) uses it through lib/zodIssues.ts.
 */

/** Characters of one echoed value (a key, a name, an id) before it is cut. */
export const MAX_ECHO_CHARS = 64;

/** `value` as an error text may quote it: its first MAX_ECHO_CHARS characters, and `…` when cut. */
export function echo(value: string, max = MAX_ECHO_CHARS): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** The net under every builder of error answers (lib/errors.ts `envelope`): no text or list of unbounded size. */
export const ENVELOPE_LIMITS = { messageChars: 1_000, pathChars: 300, problemChars: 1_000, details: 200 } as const;

export function boundedMessage(message: string): string {
  return echo(message, ENVELOPE_LIMITS.messageChars);
}

/** At most ENVELOPE_LIMITS.details entries (then one that says how many more), each text cut to its limit. */
export function boundedDetails(details: readonly ErrorDetail[]): ErrorDetail[] {
  const bounded = details.slice(0, ENVELOPE_LIMITS.details).map((detail) => ({
    ...detail,
    path: echo(detail.path, ENVELOPE_LIMITS.pathChars),
    problem: echo(detail.problem, ENVELOPE_LIMITS.problemChars),
  }));
  const more = details.length - bounded.length;
  if (more > 0) bounded.push({ path: '', problem: `and ${more} more problem${more === 1 ? '' : 's'}` });
  return bounded;
}
