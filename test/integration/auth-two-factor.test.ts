import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Two-factor sign-in (docs/auth.md#two-factor-sign-in), through the real endpoints: enrolment with an otpauth URI
 * and QR code, a second login step that issues tokens only after a code, single-use codes and recovery codes,
 * rate limits, disabling with re-authentication, and an organization's requirement.
 * Codes are computed by the test from the enrolled secret; a test that needs a second TOTP code within one 30-second
 * step clears the remembered step in PostgreSQL instead of waiting.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const PASSWORD = 'Str0ng!Passw0rd-2fa';

interface Account {
  userId: string;
  email: string;
  token: string;
  secret?: string;
  recoveryCodes?: string[];
}

async function register(): Promise<Account> {
  const email = `tf-${randomUUID()}@example.com`;
  const res = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(201);
  return { userId: res.body.user.id, email, token: res.body.tokens.accessToken };
}

const codeOf = (secret: string): string => new TOTP({ secret: Secret.fromBase32(secret) }).generate();

/** Lets the current step's code be used again (codes are single use: the accepted step is remembered). */
async function forgetUsedStep(userId: string): Promise<void> {
  await api.deps.db('user_two_factor').where({ user_id: userId }).update({ last_used_step: null });
}

async function enrol(account: Account): Promise<Account> {
  const started = await api.request('POST', '/api/auth/2fa/enrolment', { token: account.token });
  expect(started.status).toBe(201);
  const confirmed = await api.request('POST', '/api/auth/2fa/enrolment/confirm', {
    token: account.token,
    body: { code: codeOf(started.body.secret) },
  });
  expect(confirmed.status).toBe(200);
  return { ...account, token: confirmed.body.tokens.accessToken, secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

const login = (email: string) => api.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
const secondStep = (challengeToken: string, code: string) =>
  api.request('POST', '/api/auth/login/2fa', { body: { challengeToken, code } });

test('enrolment: otpauth URI and QR code, a wrong first code refused, the right one enables it and ends other sessions', async () => {
  const account = await register();
  const started = await api.request('POST', '/api/auth/2fa/enrolment', { token: account.token });
  expect(started.status).toBe(201);
  const { secret, otpauthUri, qrCodeSvg } = started.body;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const uri = new URL(otpauthUri);
  expect(uri.protocol).toBe('otpauth:');
  expect(uri.host).toBe('totp');
  expect(decodeURIComponent(uri.pathname)).toBe(`/Loom:${account.email}`);
  expect(uri.searchParams.get('secret')).toBe(secret);
  expect(uri.searchParams.get('issuer')).toBe('Loom');
  expect(Buffer.from(qrCodeSvg.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8')).toContain('<svg');
  // Stored sealed, never in the clear.
  const row = await api.deps.db('user_two_factor').where({ user_id: account.userId }).first();
  expect(row.secret_enc).not.toContain(secret);
  expect(row.enabled_at).toBeNull();
  expect((await api.request('GET', '/api/auth/2fa', { token: account.token })).body).toEqual({
    enabled: false,
    enrolmentPending: true,
    enabledAt: null,
    recoveryCodesRemaining: 0,
  });

  const wrong = String((Number(codeOf(secret)) + 1) % 1_000_000).padStart(6, '0');
  const refused = await api.request('POST', '/api/auth/2fa/enrolment/confirm', { token: account.token, body: { code: wrong } });
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('INVALID_TWO_FACTOR_CODE');

  const confirmed = await api.request('POST', '/api/auth/2fa/enrolment/confirm', { token: account.token, body: { code: codeOf(secret) } });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.recoveryCodes).toHaveLength(10);
  for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  // Recovery codes are stored hashed.
  const stored = await api.deps.db('user_recovery_codes').where({ user_id: account.userId }).pluck('code_hash');
  expect(stored).toHaveLength(10);
  for (const code of confirmed.body.recoveryCodes) expect(stored.join()).not.toContain(code.replace('-', ''));
  // The session opened with the password alone is over; the fresh pair works.
  expect((await api.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  const fresh = confirmed.body.tokens.accessToken;
  const status = await api.request('GET', '/api/auth/2fa', { token: fresh });
  expect(status.body).toMatchObject({ enabled: true, enrolmentPending: false, recoveryCodesRemaining: 10 });
  // Enrolling again while enabled is refused.
  expect((await api.request('POST', '/api/auth/2fa/enrolment', { token: fresh })).body.error.code).toBe('INVALID_STATE');
});

test('login answers a challenge and no tokens; the challenge and a code give the tokens, once', async () => {
  const account = await enrol(await register());
  await forgetUsedStep(account.userId);
  const first = await login(account.email);
  expect(first.status).toBe(200);
  expect(first.body.tokens).toBeUndefined();
  expect(first.body.challenge).toMatchObject({ twoFactorRequired: true, expiresIn: 300, methods: ['totp', 'recovery_code'] });
  const { challengeToken } = first.body.challenge;

  const code = codeOf(account.secret!);
  const signedIn = await secondStep(challengeToken, code);
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.user.email).toBe(account.email);
  expect((await api.request('GET', '/api/auth/me', { token: signedIn.body.tokens.accessToken })).status).toBe(200);

  // The challenge is spent, and the same code does not work twice (replay), even with a new challenge.
  expect((await secondStep(challengeToken, code)).body.error.code).toBe('INVALID_TOKEN');
  const again = await login(account.email);
  const replayed = await secondStep(again.body.challenge.challengeToken, code);
  expect(replayed.status).toBe(401);
  expect(replayed.body.error.code).toBe('INVALID_TWO_FACTOR_CODE');
});

test('a recovery code signs in once; the count of remaining codes goes down', async () => {
  const account = await enrol(await register());
  const [recovery] = account.recoveryCodes!;
  const signedIn = await secondStep((await login(account.email)).body.challenge.challengeToken, recovery!.toUpperCase());
  expect(signedIn.status).toBe(200);
  const status = await api.request('GET', '/api/auth/2fa', { token: signedIn.body.tokens.accessToken });
  expect(status.body.recoveryCodesRemaining).toBe(9);
  const reused = await secondStep((await login(account.email)).body.challenge.challengeToken, recovery!);
  expect(reused.status).toBe(401);
  expect(reused.body.error.code).toBe('INVALID_TWO_FACTOR_CODE');
});

test('five wrong codes end the challenge: the right code after them is refused', async () => {
  const account = await enrol(await register());
  await forgetUsedStep(account.userId);
  const { challengeToken } = (await login(account.email)).body.challenge;
  const current = Number(codeOf(account.secret!));
  for (let k = 1; k <= 5; k++) {
    const wrong = String((current + k * 7919) % 1_000_000).padStart(6, '0');
    expect((await secondStep(challengeToken, wrong)).body.error.code).toBe('INVALID_TWO_FACTOR_CODE');
  }
  const late = await secondStep(challengeToken, codeOf(account.secret!));
  expect(late.status).toBe(401);
  expect(late.body.error.code).toBe('INVALID_TOKEN');
  const failures = await api.deps.db('audit_logs').where({ user_id: account.userId, action: 'auth.two_factor_failed' }).count('* as n').first();
  expect(Number(failures!.n)).toBe(5);
});

test('code checks are rate-limited per account: beyond the limit even the right code answers 429', async () => {
  const limited = await startApi({ SERVICE_RATE_LIMIT_TWO_FACTOR_ACCOUNT: '3/15m' });
  try {
    const email = `tf-${randomUUID()}@example.com`;
    const reg = await limited.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
    const token = reg.body.tokens.accessToken;
    const { secret } = (await limited.request('POST', '/api/auth/2fa/enrolment', { token })).body;
    expect((await limited.request('POST', '/api/auth/2fa/enrolment/confirm', { token, body: { code: codeOf(secret) } })).status).toBe(200);
    await limited.deps.db('user_two_factor').where({ user_id: reg.body.user.id }).update({ last_used_step: null });
    const { challengeToken } = (await limited.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body.challenge;
    const tries = [];
    for (const code of ['000001', '000002']) {
      tries.push((await limited.request('POST', '/api/auth/login/2fa', { body: { challengeToken, code } })).status);
    }
    const right = await limited.request('POST', '/api/auth/login/2fa', { body: { challengeToken, code: codeOf(secret) } });
    expect([...tries, right.status]).toEqual([401, 401, 429]);
    expect(right.body.error.code).toBe('RATE_LIMITED');
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/);
  } finally {
    await limited.close();
  }
});

test('disabling needs the password and a code; afterwards login gives tokens directly', async () => {
  const account = await enrol(await register());
  await forgetUsedStep(account.userId);
  const noPassword = await api.request('POST', '/api/auth/2fa/disable', { token: account.token, body: { code: codeOf(account.secret!) } });
  expect(noPassword.status).toBe(401);
  expect(noPassword.body.error.code).toBe('INVALID_CREDENTIALS');
  const wrongCode = await api.request('POST', '/api/auth/2fa/disable', { token: account.token, body: { password: PASSWORD, code: '000000' } });
  expect(wrongCode.status).toBe(401);
  expect(wrongCode.body.error.code).toBe('INVALID_TWO_FACTOR_CODE');
  await forgetUsedStep(account.userId);
  const ok = await api.request('POST', '/api/auth/2fa/disable', { token: account.token, body: { password: PASSWORD, code: codeOf(account.secret!) } });
  expect(ok.status).toBe(204);
  expect(await api.deps.db('user_recovery_codes').where({ user_id: account.userId }).first()).toBeUndefined();
  const plain = await login(account.email);
  expect(plain.body.tokens.accessToken).toEqual(expect.any(String));
  expect(plain.body.challenge).toBeUndefined();
});

describe('an organization that requires two-factor sign-in', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant(api);
  });

  test('refuses a member without it, telling them to enrol; lets them in once enrolled; admins see who has it', async () => {
    const account = await register();
    await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: account.userId, role: 'member' });
    const switched = await api.request('POST', '/api/auth/switch-organization', {
      token: account.token,
      body: { organizationID: tenant.organizationId },
    });
    let token: string = switched.body.accessToken;
    expect((await api.request('GET', '/api/v1/workflows', { token })).status).toBe(200);

    // Set by an admin who has two-factor sign-in (without it, the setter is refused with 422: security/step-up.test.ts).
    const setter = await enrol(await register());
    await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: setter.userId, role: 'admin' });
    const set = await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, {
      token: setter.token,
      body: { security: { requireTwoFactor: true } },
    });
    expect(set.status).toBe(200);

    const refused = await api.request('GET', '/api/v1/workflows', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({
      code: 'TWO_FACTOR_REQUIRED',
      message:
        'this organization requires two-factor sign-in; enrol an authenticator app with POST /api/auth/2fa/enrolment, then confirm a code',
      request_id: expect.any(String),
    });
    const path = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}`, { token });
    expect(path.body.error.code).toBe('TWO_FACTOR_REQUIRED');
    // The owner has no second factor either: refused as well, and the members list says who has it once enrolled.
    expect((await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/members`, { token: tenant.owner.token })).status).toBe(403);

    // Enrolment needs no organization, so the refused member can do it.
    const enrolled = await enrol({ ...account, token });
    token = enrolled.token;
    expect((await api.request('GET', '/api/v1/workflows', { token })).status).toBe(200);

    // An admin (with two-factor) sees who has it; a plain member does not see the field.
    const admin = await enrol(await register());
    await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: admin.userId, role: 'admin' });
    const members = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/members`, { token: admin.token });
    expect(members.status).toBe(200);
    const byId = new Map<string, { twoFactorEnabled?: boolean }>(members.body.data.map((m: { userID: string }) => [m.userID, m]));
    expect(byId.get(account.userId)?.twoFactorEnabled).toBe(true);
    expect(byId.get(admin.userId)?.twoFactorEnabled).toBe(true);
    expect(byId.get(tenant.owner.userId)?.twoFactorEnabled).toBe(false);
    const asMember = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/members`, { token });
    expect(asMember.body.data[0].twoFactorEnabled).toBeUndefined();

    // API keys are not users: unaffected by the requirement.
    const key = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/api-keys`, {
      token: admin.token,
      body: { name: 'ci', role: 'member' },
    });
    expect(key.status).toBe(201);
    expect((await api.request('GET', '/api/v1/workflows', { headers: { 'x-api-key': key.body.key } })).status).toBe(200);
  });
});
