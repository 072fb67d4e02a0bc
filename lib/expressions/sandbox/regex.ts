import RE2 from 're2';
import { ExpressionError } from '../errors';
import { REGEX_LIMITS } from '../limits';

/**
 * Every regular expression a user writes that the platform runs over data (content extraction, JSONata regex
 * literals) is compiled here, with RE2: matching takes time linear in the input, so `(a+)+$` cannot backtrack
 * exponentially, and the constructs that need backtracking (backreferences, lookaround) do not compile. RE2 objects
 * are RegExp-compatible (exec, lastIndex, flags), which is what JSONata and String.prototype.matchAll use.
 * (CEL's `matches` keeps JavaScript's engine inside its library; its patterns are literals vetted at save time by
 * regexSafety.ts, and run under the sandbox deadline.)
 */
export const REGEX_ENGINE = 're2';

/** RE2's words for what it refuses are clear but long; the first clause is kept, never a stack or a native path. */
function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const clause = message.split('\n')[0]!.replace(/^Invalid regular expression:\s*/i, '').slice(0, 160);
  return clause || 'does not compile';
}

export function compileRegex(pattern: string | RegExp, flags?: string): RegExp {
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  if (source.length > REGEX_LIMITS.maxPatternLength) {
    throw new ExpressionError('INVALID_REGEX', `regular expression longer than ${REGEX_LIMITS.maxPatternLength} characters`);
  }
  try {
    return typeof pattern === 'string' ? new RE2(pattern, flags) : new RE2(pattern);
  } catch (err) {
    throw new ExpressionError('INVALID_REGEX', `invalid regular expression (RE2 syntax, no backreferences or lookaround): ${reason(err)}`);
  }
}

/**
 * The class JSONata constructs its regex literals with (its `RegexEngine` option): every literal goes through
 * compileRegex, so JSONata never runs a backtracking match.
 */
export const SandboxRegExp = function SandboxRegExp(pattern: string | RegExp, flags?: string): RegExp {
  return compileRegex(pattern, flags);
} as unknown as RegExpConstructor;

export interface RegexMatch {
  match: string;
  index: number;
  groups: (string | null)[];
}

/** Matches of a pattern over a text, at most `maxMatches` (an empty match advances one character, as matchAll does). */
export function regexMatches(text: string, pattern: string, flags: string, maxMatches: number): { matches: RegexMatch[]; truncated: boolean } {
  const regex = compileRegex(pattern, `${flags.replace(/g/g, '')}g`);
  const matches: RegexMatch[] = [];
  const limit = Math.min(maxMatches, REGEX_LIMITS.maxMatches);
  for (const m of text.matchAll(regex)) {
    matches.push({ match: m[0], index: m.index ?? 0, groups: m.slice(1).map((g) => g ?? null) });
    if (matches.length >= limit) break;
  }
  return { matches, truncated: matches.length >= limit };
}
