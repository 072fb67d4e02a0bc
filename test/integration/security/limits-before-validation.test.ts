import { startApi, type TestApi } from '../../helpers/stack';

/**
 * The per-IP limits of the public account routes count before the body is read or validated (RouteDef `admit`,
 * docs/security.md, capacity model: API event loop): a flood of malformed bodies is refused with 429 once over the
 * limit, like any other flood, instead of being validated (and answered 400) again and again without counting.
 * Windows are a minute long and aligned to the epoch, so 2 x LIMIT + 1 requests put more than LIMIT in one window.
 */

const LIMIT = 3;
let api: TestApi;

beforeAll(async () => {
  api = await startApi({
    SERVICE_TRUST_PROXY: 'true',
    SERVICE_RATE_LIMIT_REGISTER_IP: `${LIMIT}/1m`,
    SERVICE_RATE_LIMIT_LOGIN_IP: `${LIMIT}/1m`,
    SERVICE_RATE_LIMIT_REFRESH_IP: `${LIMIT}/1m`,
    SERVICE_RATE_LIMIT_RESET_IP: `${LIMIT}/1m`,
  });
});
afterAll(() => api.close());

const randomIp = (): string => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;
const HUGE_KEY = 'n'.repeat(1_000_000);

test.each([
  '/api/auth/register',
  '/api/auth/login',
  '/api/auth/refresh',
  '/api/auth/password-reset/request',
  '/api/auth/password-reset/confirm',
  '/api/auth/email-verification/confirm',
])('%s: malformed bodies count against the per-IP limit (429 past it, not 400 forever)', async (path) => {
  const ip = randomIp();
  const statuses: number[] = [];
  for (let i = 0; i < 2 * LIMIT + 1; i++) {
    const res = await api.request('POST', path, { body: { [HUGE_KEY]: 1 }, headers: { 'x-forwarded-for': ip } });
    statuses.push(res.status);
    if (res.status === 429) {
      expect(res.body.error.code).toBe('RATE_LIMITED');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      break;
    }
  }
  expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
  expect(statuses[statuses.length - 1]).toBe(429);
  // Another address is not affected.
  const other = await api.request('POST', path, { body: { [HUGE_KEY]: 1 }, headers: { 'x-forwarded-for': randomIp() } });
  expect(other.status).toBe(400);
});
