import { ConfigError, loadConfig } from '../../lib/config';

const secret = 'a'.repeat(32);

describe('auth configuration', () => {
  test('defaults: a 10 s refresh reuse grace, 1 h e-mailed codes, rate limits on', () => {
    const c = loadConfig({ SERVICE_JWT_SECRET: secret });
    expect(c.auth.refreshReuseGraceMs).toBe(10_000);
    expect(c.auth.passwordResetTtlMs).toBe(3_600_000);
    expect(c.auth.emailVerificationTtlMs).toBe(3_600_000);
    expect(c.rateLimits).toEqual({
      loginIp: { limit: 50, windowMs: 900_000 },
      loginAccount: { limit: 10, windowMs: 900_000 },
      loginAccountIp: { limit: 10, windowMs: 900_000 },
      registerIp: { limit: 20, windowMs: 3_600_000 },
      refreshIp: { limit: 300, windowMs: 900_000 },
      refreshAccount: { limit: 60, windowMs: 900_000 },
      resetIp: { limit: 20, windowMs: 3_600_000 },
      resetAccount: { limit: 5, windowMs: 3_600_000 },
      twoFactorAccount: { limit: 10, windowMs: 900_000 },
    });
  });

  test('limits can be changed or switched off; a bad one names the key', () => {
    const c = loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_RATE_LIMIT_LOGIN_IP: 'off', SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: '5/1m' });
    expect(c.rateLimits.loginIp).toBeNull();
    expect(c.rateLimits.loginAccount).toEqual({ limit: 5, windowMs: 60_000 });
    expect(() => loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_RATE_LIMIT_REFRESH_IP: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_RATE_LIMIT_REFRESH_IP: 'lots' })).toThrow(
      /SERVICE_RATE_LIMIT_REFRESH_IP/,
    );
  });
});
