import { assertPasswordPolicy, checkPassword, type PasswordPolicy } from '../../lib/auth/passwordPolicy';
import { commonPasswords } from '../../lib/auth/commonPasswords';
import { AppError } from '../../lib/errors';
import { parseRateRule } from '../../lib/rateRule';

const strict: PasswordPolicy = { minLength: 8, requireUppercase: true, requireNumbers: true, requireSymbols: true };
const rules = (password: string, policy = strict, email?: string) =>
  checkPassword(password, policy, { email }).map((p) => p.rule);

describe('password policy', () => {
  test('accepts a password that meets every rule', () => {
    expect(rules('Corr3ct-Horse-Battery')).toEqual([]);
    expect(rules('Ünïcode-Pässwört-9')).toEqual([]);
  });

  test('names each rule that fails', () => {
    expect(rules('abc')).toEqual(['minLength', 'uppercase', 'number', 'symbol']);
    expect(rules('kestrelwing1!')).toEqual(['uppercase']);
    expect(rules('Kestrelwing!')).toEqual(['number']);
    expect(rules('Kestrelwing12')).toEqual(['symbol']);
    expect(rules('Ab1!')).toEqual(['minLength']);
  });

  test('character classes follow the configuration', () => {
    const lenient: PasswordPolicy = { minLength: 12, requireUppercase: false, requireNumbers: false, requireSymbols: false };
    expect(rules('lowercase only words', lenient)).toEqual([]);
    expect(rules('short', lenient)).toEqual(['minLength']);
  });

  test('counts characters for the minimum and bytes for the bcrypt maximum', () => {
    expect(rules(`Aa1!${'é'.repeat(4)}`)).toEqual([]); // 8 characters, 12 bytes
    expect(rules(`Aa1!${'x'.repeat(68)}`)).toEqual([]); // exactly 72 bytes
    expect(rules(`Aa1!${'x'.repeat(69)}`)).toEqual(['maxBytes']);
    expect(rules(`Aa1!${'é'.repeat(35)}`)).toEqual(['maxBytes']); // 39 characters, 74 bytes
    expect(rules('A1!'.repeat(3500))).toEqual(['maxBytes']); // a huge password is refused on length alone
  });

  test('refuses common passwords, also with decorations, leet and any case', () => {
    // A list entry that ends in digits with a symbol added, and decorations in front, are still the entry.
    for (const password of ['Password1!', 'P@ssw0rd!', 'QWERTY123!', 'Sunshine2024!', 'Dr4gon!!', 'Welcome@123', 'Letmein#1', 'Trustno1!', 'Zaq1zaq1!', '!Password1', '2024Dragon!']) {
      expect(rules(password)).toContain('common');
    }
    expect(commonPasswords().size).toBeGreaterThan(5000);
    expect(commonPasswords().has('123456')).toBe(true);
  });

  test('refuses a password containing the e-mail local part', () => {
    expect(rules('Grace.Hopper-1906', strict, 'grace.hopper@example.com')).toEqual(['email']);
    expect(rules('Grace.Hopper-1906', strict, 'someone@example.com')).toEqual([]);
  });

  test('NFKC: full-width digits count as digits', () => {
    expect(rules('Kestrelwing！１')).toEqual([]);
  });

  test('assertPasswordPolicy throws WEAK_PASSWORD with one detail per failed rule', () => {
    try {
      assertPasswordPolicy('abc', strict, { field: 'body.newPassword' });
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      const appError = err as AppError;
      expect(appError.code).toBe('WEAK_PASSWORD');
      expect(appError.status).toBe(400);
      expect(appError.details).toHaveLength(4);
      expect(appError.details![0]).toEqual({ path: 'body.newPassword', problem: 'minLength: at least 8 characters; this one has 3' });
    }
  });
});

describe('rate rules', () => {
  test.each([
    ['10/15m', { limit: 10, windowMs: 900_000 }],
    ['100 / 1h', { limit: 100, windowMs: 3_600_000 }],
    ['3/2s', { limit: 3, windowMs: 2000 }],
  ])('%s', (text, rule) => expect(parseRateRule(text)).toEqual(rule));

  test('off disables; nonsense is refused', () => {
    expect(parseRateRule('off')).toBeNull();
    for (const bad of ['10', '/15m', '0/1m', '10/100ms', 'ten/1m', '10/15x']) expect(() => parseRateRule(bad)).toThrow();
  });
});
