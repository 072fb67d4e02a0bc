import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { waitForMail } from '../../helpers/mail';
import { startApi, type TestApi, type TestResponse } from '../../helpers/stack';

/**
 * Breached and common passwords (lib/auth/common-passwords.txt, ~10k entries) are refused wherever a password is
 * set: registration, password change, reset confirmation. Black-box: a spread sample of the shipped list as is,
 * and decorated the way people do (capital first letter, digits and symbols before or after, leet), each of which
 * meets every other rule of the policy, so the refusal can only come from the list.
 */

const STRONG = 'Kestrel-Orbit-Lantern-47';
const LIST = readFileSync(path.join(__dirname, '../../../lib/auth/common-passwords.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

/** `count` entries matching `pattern`, spread evenly over the list (deterministic). */
function spread(pattern: RegExp, count: number): string[] {
  const matching = LIST.filter((w) => pattern.test(w));
  const step = Math.max(1, Math.floor(matching.length / count));
  return matching.filter((_, i) => i % step === 0).slice(0, count);
}

const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
const LEET: Record<string, string> = { a: '@', o: '0', e: '3', s: '$' };
const leet = (w: string) => w[0]!.toUpperCase() + [...w.slice(1)].map((c) => LEET[c] ?? c).join('');

const RAW = spread(/./, 40);
const WORDS = spread(/^[a-z]{6,12}$/, 15);
const WITH_DIGITS = spread(/^(?=.{7,})[a-z]{4,}\d{1,4}$/, 10);
/** Decorated forms: each has 8+ characters, an upper-case letter, a digit and a symbol. */
const DECORATED = [
  'Password123!',
  'P@ssw0rd!',
  ...WORDS.flatMap((w) => [`${cap(w)}1!`, `!${cap(w)}2024`, `${leet(w)}#7`, `2024${cap(w)}!`]),
  ...WITH_DIGITS.map((w) => `${cap(w)}!`),
];

let api: TestApi;

beforeAll(async () => {
  api = await startApi({ SERVICE_AUTH_BCRYPT_COST: '4' });
});

afterAll(async () => {
  await api?.close();
});

const newEmail = () => `pw-${randomUUID()}@example.com`;

function rulesOf(res: TestResponse): string[] {
  return ((res.body?.error?.details ?? []) as { problem: string }[]).map((d) => d.problem.split(':')[0]!);
}

function meetsOtherRules(password: string): boolean {
  return [...password].length >= 8 && /\p{Lu}/u.test(password) && /\d/.test(password) && /[^\p{L}\d]/u.test(password);
}

test('the sample is what it claims: 40 raw entries, decorated forms that meet every other rule', () => {
  expect(LIST.length).toBeGreaterThan(9000);
  expect(RAW).toHaveLength(40);
  expect(WORDS.length).toBe(15);
  expect(WITH_DIGITS.length).toBe(10);
  expect(DECORATED.filter((p) => !meetsOtherRules(p))).toEqual([]);
});

test('registration refuses list entries and their decorated forms (400 WEAK_PASSWORD naming the rule), creates no user', async () => {
  const failures: string[] = [];
  for (const password of [...RAW, ...DECORATED]) {
    const email = newEmail();
    const res = await api.request('POST', '/api/auth/register', { body: { email, password } });
    const rules = rulesOf(res);
    if (res.status !== 400 || res.body?.error?.code !== 'WEAK_PASSWORD' || !rules.includes('common')) {
      failures.push(`${password}: ${res.status} ${rules.join(',')}`);
    } else if (DECORATED.includes(password) && rules.join(',') !== 'common') {
      failures.push(`${password}: refused for ${rules.join(',')}, expected the list alone`);
    }
    if (await api.deps.db('users').where({ email }).first()) failures.push(`${password}: a user was created`);
  }
  expect(failures).toEqual([]);
  console.info(`passwords: ${RAW.length} list entries and ${DECORATED.length} decorated forms refused at registration`);
});

test('a strong password is accepted at registration and logs in', async () => {
  const email = newEmail();
  const res = await api.request('POST', '/api/auth/register', { body: { email, password: STRONG } });
  expect(res.status).toBe(201);
  expect((await api.request('POST', '/api/auth/login', { body: { email, password: STRONG } })).status).toBe(200);
});

test('password change refuses common passwords on body.newPassword; the old password keeps working', async () => {
  const email = newEmail();
  const registered = await api.request('POST', '/api/auth/register', { body: { email, password: STRONG } });
  expect(registered.status).toBe(201);
  const token = registered.body.tokens.accessToken as string;
  const sample = [RAW[3]!, RAW[27]!, 'Password123!', DECORATED[5]!, DECORATED[DECORATED.length - 1]!];
  for (const newPassword of sample) {
    const res = await api.request('POST', '/api/auth/password', { token, body: { currentPassword: STRONG, newPassword } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('WEAK_PASSWORD');
    expect(rulesOf(res)).toContain('common');
    expect(res.body.error.details[0].path).toBe('body.newPassword');
  }
  expect((await api.request('POST', '/api/auth/login', { body: { email, password: STRONG } })).status).toBe(200);
  const changed = await api.request('POST', '/api/auth/password', { token, body: { currentPassword: STRONG, newPassword: 'Quartz-Meadow-Falcon-83' } });
  expect(changed.status).toBe(200);
});

test('reset confirmation refuses common passwords without spending the code; a strong one then succeeds', async () => {
  const email = newEmail();
  expect((await api.request('POST', '/api/auth/register', { body: { email, password: STRONG } })).status).toBe(201);
  expect((await api.request('POST', '/api/auth/password-reset/request', { body: { email } })).status).toBe(202);
  const mail = await waitForMail(email, /Reset your Loom password/);
  const code = /Reset code: (\S+)/.exec(mail.text ?? '')![1]!;
  for (const password of [RAW[11]!, 'P@ssw0rd!', DECORATED[9]!, DECORATED[20]!]) {
    const res = await api.request('POST', '/api/auth/password-reset/confirm', { body: { token: code, password } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('WEAK_PASSWORD');
    expect(rulesOf(res)).toContain('common');
  }
  expect((await api.request('POST', '/api/auth/login', { body: { email, password: STRONG } })).status).toBe(200);
  const ok = await api.request('POST', '/api/auth/password-reset/confirm', { body: { token: code, password: 'Harbor-Violet-Comet-29' } });
  expect(ok.status).toBe(204);
  expect((await api.request('POST', '/api/auth/login', { body: { email, password: 'Harbor-Violet-Comet-29' } })).status).toBe(200);
});
