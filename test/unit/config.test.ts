import { ConfigError, loadConfig } from '../../lib/config';
import { parseDuration } from '../../lib/duration';

const secret = 'a'.repeat(32);

describe('parseDuration', () => {
  test.each([
    ['15m', 900_000],
    ['7d', 604_800_000],
    ['30s', 30_000],
    ['250ms', 250],
    ['1h30m', 5_400_000],
    ['90', 90_000],
  ])('%s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  test.each(['', 'abc', '15x', '10m garbage', '-5m'])('refuses %p', (text) => {
    expect(() => parseDuration(text)).toThrow(/not a duration/);
  });
});

describe('loadConfig', () => {
  test('applies the spec defaults', () => {
    const c = loadConfig({ SERVICE_JWT_SECRET: secret });
    expect(c.jwt.accessTtlMs).toBe(15 * 60_000);
    expect(c.jwt.refreshTtlMs).toBe(7 * 86_400_000);
    expect(c.auth).toMatchObject({
      passwordMinLength: 8,
      passwordRequireUppercase: true,
      passwordRequireNumbers: true,
      passwordRequireSymbols: true,
      maxSessionsPerUser: 5,
      sessionIdleTimeoutMs: 30 * 60_000,
      bcryptCost: 10,
    });
    expect(c.http.port).toBe(3000);
    expect(c.temporal.address).toBe('127.0.0.1:7233');
  });

  test('refuses a JWT secret shorter than 32 characters', () => {
    expect(() => loadConfig({ SERVICE_JWT_SECRET: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICE_JWT_SECRET: 'short' })).toThrow(/at least 32/);
  });

  test('refuses a missing secret with a clear message', () => {
    expect(() => loadConfig({})).toThrow(/SERVICE_JWT_SECRET/);
  });

  test('reads overrides and rejects bad values', () => {
    const c = loadConfig({
      SERVICE_JWT_SECRET: secret,
      SERVICE_JWT_ACCESS_TOKEN_DURATION: '5m',
      SERVICE_AUTH_PASSWORD_REQUIRE_SYMBOLS: 'false',
      SERVICE_PORT: '4000',
    });
    expect(c.jwt.accessTtlMs).toBe(300_000);
    expect(c.auth.passwordRequireSymbols).toBe(false);
    expect(c.http.port).toBe(4000);
    expect(() => loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_PORT: 'eighty' })).toThrow(/SERVICE_PORT/);
    expect(() => loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_JWT_ACCESS_TOKEN_DURATION: 'soon' })).toThrow(
      /SERVICE_JWT_ACCESS_TOKEN_DURATION/,
    );
  });

  test('empty values fall back to defaults', () => {
    expect(loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_PORT: '' }).http.port).toBe(3000);
  });
});
