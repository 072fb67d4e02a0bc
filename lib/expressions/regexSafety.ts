/**
 * Regular expressions in user expressions (CEL `matches`, JSONata regex literals) run on JavaScript's backtracking
 * engine, which cannot be interrupted. So patterns are vetted before use: short, no backreferences or lookaround,
 * no quantified group that itself contains a quantifier or an alternation (the shapes behind exponential
 * backtracking, e.g. `(a+)+`, `(a|a)*`), and only a few unbounded quantifiers (polynomial blow-ups like `a*a*a*b`).
 * Pure: used at save time (validation) and at evaluation time (defence in depth).
 */
export const MAX_REGEX_LENGTH = 200;
export const MAX_UNBOUNDED_QUANTIFIERS = 3;

interface GroupFrame {
  hasQuantifier: boolean;
  hasAlternation: boolean;
}

/** Returns null when the pattern is acceptable, else the reason it is refused. */
export function regexProblem(pattern: string): string | null {
  if (pattern.length > MAX_REGEX_LENGTH) return `regular expression longer than ${MAX_REGEX_LENGTH} characters`;
  try {
    new RegExp(pattern);
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message}`;
  }
  const stack: GroupFrame[] = [{ hasQuantifier: false, hasAlternation: false }];
  let unbounded = 0;
  let inClass = false;
  let lastClosedGroup: GroupFrame | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    const justClosed = lastClosedGroup;
    lastClosedGroup = null;
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences are not allowed in regular expressions';
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      continue;
    }
    if (ch === '(') {
      if (pattern[i + 1] === '?') {
        const kind = pattern.slice(i + 2, i + 4);
        if (kind.startsWith('=') || kind.startsWith('!') || kind === '<=' || kind === '<!') {
          return 'lookahead and lookbehind are not allowed in regular expressions';
        }
        // Skip the group prefix (`?:`, `?<name>`) so its `?` is not read as a quantifier.
        i = kind.startsWith('<') ? pattern.indexOf('>', i) : i + 2;
      }
      stack.push({ hasQuantifier: false, hasAlternation: false });
      continue;
    }
    if (ch === ')') {
      const closed = stack.pop()!;
      const parent = stack[stack.length - 1]!;
      parent.hasQuantifier ||= closed.hasQuantifier;
      parent.hasAlternation ||= closed.hasAlternation;
      lastClosedGroup = closed;
      continue;
    }
    if (ch === '|') {
      stack[stack.length - 1]!.hasAlternation = true;
      continue;
    }
    const isQuantifier = ch === '*' || ch === '+' || ch === '?' || (ch === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    if (!isQuantifier) continue;
    // A lazy/possessive marker after a quantifier is not a quantifier of its own.
    if (ch === '?' && /[*+?}]/.test(pattern[i - 1] ?? '') && pattern[i - 2] !== '\\') continue;
    const unboundedHere = ch === '*' || ch === '+' || (ch === '{' && /^\{\d+,\}/.test(pattern.slice(i)));
    if (unboundedHere) unbounded++;
    if (justClosed && (justClosed.hasQuantifier || (justClosed.hasAlternation && unboundedHere))) {
      return 'nested quantifiers (a quantified group containing a quantifier or alternation) are not allowed';
    }
    stack[stack.length - 1]!.hasQuantifier = true;
    if (ch === '{') i = pattern.indexOf('}', i);
  }
  if (unbounded > MAX_UNBOUNDED_QUANTIFIERS) {
    return `at most ${MAX_UNBOUNDED_QUANTIFIERS} unbounded quantifiers (*, +, {n,}) are allowed`;
  }
  return null;
}

export function isRegexSafe(pattern: string): boolean {
  return regexProblem(pattern) === null;
}
