import { randomUUID } from 'node:crypto';
import { startApi, type TestApi, type TestResponse } from '../../helpers/stack';

/**
 * The login limits (docs/auth.md#login-limits): nobody can lock the owner of an address out by failing on purpose,
 * and guessing stays bounded per source. Windows are a minute long and aligned to the epoch, so loops send up to
 * 2 x limit + 1 attempts (more than `limit` of them land in one window for sure).
 */

let api: TestApi;
const LIMIT = 3;
const PASSWORD = 'Corr3ct-Horse-Battery!';

beforeAll(async () => {
  api = await startApi({
    SERVICE_TRUST_PROXY: 'true',
    SERVICE_RATE_LIMIT_LOGIN_IP: '10/1m',
    SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: `${LIMIT}/1m`,
    SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP: `${LIMIT}/1m`,
  });
});
afterAll(() => api.close());

const randomIp = (): string => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;
const login = (email: string, password: string, ip: string): Promise<TestResponse> =>
  api.request('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

async function registerVictim(): Promise<string> {
  const email = `victim-${randomUUID().slice(0, 8)}@example.com`;
  const res = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(201);
  return email;
}

async function untilLimited(send: () => Promise<TestResponse>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 2 * LIMIT + 1; i++) {
    const res = await send();
    statuses.push(res.status);
    if (res.status === 429) {
      expect(res.body.error.code).toBe('RATE_LIMITED');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      return statuses;
    }
  }
  throw new Error(`never limited: ${statuses.join(',')}`);
}

test('wrong passwords from one IP get 429; the right password from another IP still signs in', async () => {
  const email = await registerVictim();
  const attacker = randomIp();
  const statuses = await untilLimited(() => login(email, 'Wrong-Passw0rd!', attacker));
  expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
  // The attacker's source stays bounded even when it guesses right.
  expect((await login(email, PASSWORD, attacker)).status).toBe(429);

  const victim = await login(email, PASSWORD, randomIp());
  expect(victim.status).toBe(200);
  expect(victim.body.tokens.accessToken).toEqual(expect.any(String));
});

test('a distributed attack (a new IP per guess) trips the account-wide limit, and the right password still signs in', async () => {
  const email = await registerVictim();
  const statuses = await untilLimited(() => login(email, 'Wrong-Passw0rd!', randomIp()));
  expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
  // The account is under attack: more wrong passwords keep getting 429 ...
  expect((await login(email, 'Wrong-Passw0rd!', randomIp())).status).toBe(429);
  // ... but the owner's right password is not refused.
  expect((await login(email, PASSWORD, randomIp())).status).toBe(200);
});

test('one IP spraying many accounts is limited per IP', async () => {
  const ip = randomIp();
  const statuses: number[] = [];
  for (let i = 0; i < 21 && !statuses.includes(429); i++) {
    statuses.push((await login(`spray-${randomUUID().slice(0, 8)}@example.com`, 'Wrong-Passw0rd!', ip)).status);
  }
  expect(statuses).toContain(429);
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
});
