import { AppError, type ErrorDetail } from '../errors';
import { commonPasswords } from './commonPasswords';

/**
 * The password policy (spec: configurable minimum length and character classes, a common-password check), plus
 * bcrypt's hard limit: it reads only the first 72 bytes, so a longer password would silently match any password
 * sharing those bytes. Longer passwords are refused, never truncated.
 *
 * Passwords are NFKC-normalised before checking, hashing and comparing, so the same password typed on different
 * keyboards (composed or decomposed accents, full-width digits) is the same password.
 */
export const BCRYPT_MAX_BYTES = 72;

export interface PasswordPolicy {
  minLength: number;
  requireUppercase: boolean;
  requireNumbers: boolean;
  requireSymbols: boolean;
}

export type PasswordRule = 'maxBytes' | 'minLength' | 'uppercase' | 'number' | 'symbol' | 'common' | 'email';

export interface PasswordProblem {
  rule: PasswordRule;
  message: string;
}

export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

export function passwordBytes(password: string): number {
  return Buffer.byteLength(normalizePassword(password), 'utf8');
}

const LEET: Record<string, string> = { '@': 'a', '4': 'a', '0': 'o', '3': 'e', '1': 'i', '!': 'i', $: 's', '5': 's', '7': 't' };
const LETTER = /\p{L}/u;

/**
 * The forms of a password to look up in the common list: as typed and with any part of its leading and trailing
 * digits/symbols removed (`trustno1!` -> `trustno1`, `2024dragon!` -> `dragon`), each also un-leeted. At most
 * 72 bytes, so at most a few thousand short lookups.
 */
function commonCandidates(lower: string): string[] {
  const chars = [...lower];
  let lead = 0;
  while (lead < chars.length && !LETTER.test(chars[lead]!)) lead += 1;
  let trail = 0;
  while (trail < chars.length - lead && !LETTER.test(chars[chars.length - 1 - trail]!)) trail += 1;
  const candidates = new Set<string>();
  for (let i = 0; i <= lead; i += 1) {
    for (let j = 0; j <= trail && i + j <= chars.length; j += 1) {
      const core = chars.slice(i, chars.length - j);
      if (core.length < 4) continue;
      candidates.add(core.join(''));
      candidates.add(core.map((c) => LEET[c] ?? c).join(''));
    }
  }
  return [...candidates];
}

/** Every rule the password breaks (empty when it is acceptable). */
export function checkPassword(
  password: string,
  policy: PasswordPolicy,
  context: { email?: string } = {},
): PasswordProblem[] {
  const normalized = normalizePassword(password);
  const bytes = Buffer.byteLength(normalized, 'utf8');
  if (bytes > BCRYPT_MAX_BYTES) {
    // Checked first and alone: a huge password must be refused before any other work is spent on it.
    return [{ rule: 'maxBytes', message: `at most ${BCRYPT_MAX_BYTES} bytes (UTF-8); this one has ${bytes}` }];
  }
  const problems: PasswordProblem[] = [];
  const length = [...normalized].length;
  if (length < policy.minLength) {
    problems.push({ rule: 'minLength', message: `at least ${policy.minLength} characters; this one has ${length}` });
  }
  if (policy.requireUppercase && !/\p{Lu}/u.test(normalized)) {
    problems.push({ rule: 'uppercase', message: 'needs an uppercase letter' });
  }
  if (policy.requireNumbers && !/\p{Nd}/u.test(normalized)) {
    problems.push({ rule: 'number', message: 'needs a digit' });
  }
  if (policy.requireSymbols && !/[^\p{L}\p{Nd}]/u.test(normalized)) {
    problems.push({ rule: 'symbol', message: 'needs a symbol (a character that is neither a letter nor a digit)' });
  }
  const lower = normalized.toLowerCase();
  const list = commonPasswords();
  if (commonCandidates(lower).some((candidate) => list.has(candidate))) {
    problems.push({ rule: 'common', message: 'is a common password (or one with only digits or symbols added)' });
  }
  const localPart = context.email?.split('@')[0]?.toLowerCase();
  if (localPart && localPart.length >= 3 && lower.includes(localPart)) {
    problems.push({ rule: 'email', message: 'must not contain the e-mail address' });
  }
  return problems;
}

/** Throws WEAK_PASSWORD (400) naming each rule that failed, as details on `field` (e.g. `body.password`). */
export function assertPasswordPolicy(
  password: string,
  policy: PasswordPolicy,
  options: { email?: string; field?: string } = {},
): void {
  const problems = checkPassword(password, policy, { email: options.email });
  if (problems.length === 0) return;
  const field = options.field ?? 'body.password';
  const details: ErrorDetail[] = problems.map((p) => ({ path: field, problem: `${p.rule}: ${p.message}` }));
  throw new AppError(
    'WEAK_PASSWORD',
    `password does not meet the policy (${problems.map((p) => p.rule).join(', ')})`,
    details,
  );
}
