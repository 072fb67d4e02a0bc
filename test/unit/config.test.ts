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

describe('production mode', () => {
  const production = {
    NODE_ENV: 'production',
    SERVICE_JWT_SECRET: secret,
    SERVICE_ENCRYPTION_KEY: 'k'.repeat(32),
    MINIO_ACCESS_KEY: 'loom-prod',
    MINIO_SECRET_KEY: 'a-real-secret-for-minio',
  };

  test('accepts a complete production configuration', () => {
    expect(loadConfig(production).env).toBe('production');
  });

  test('requires SERVICE_ENCRYPTION_KEY, in one line naming it', () => {
    const withoutKey = { ...production, SERVICE_ENCRYPTION_KEY: undefined };
    expect(() => loadConfig(withoutKey)).toThrow(ConfigError);
    expect(() => loadConfig(withoutKey)).toThrow(/SERVICE_ENCRYPTION_KEY: required when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, SERVICE_ENCRYPTION_KEY: '' })).toThrow(/SERVICE_ENCRYPTION_KEY/);
    // development keeps the derived key (with its warning)
    expect(loadConfig({ ...withoutKey, NODE_ENV: 'development' }).organizations.encryptionKey).toBeNull();
  });

  test.each([
    ['both defaults written out', { MINIO_ACCESS_KEY: 'loomadmin', MINIO_SECRET_KEY: 'loomadmin-secret' }],
    ['both left unset', { MINIO_ACCESS_KEY: undefined, MINIO_SECRET_KEY: undefined }],
    ['the default secret key only', { MINIO_SECRET_KEY: 'loomadmin-secret' }],
    ['the default access key only', { MINIO_ACCESS_KEY: 'loomadmin' }],
  ])('refuses the default MinIO credentials: %s', (_name, minio) => {
    expect(() => loadConfig({ ...production, ...minio })).toThrow(/MINIO_ACCESS_KEY\/MINIO_SECRET_KEY: the default credentials/);
    expect(loadConfig({ ...production, ...minio, NODE_ENV: 'test' }).minio.accessKey).toBeTruthy();
  });

  test('every production refusal is reported at once, on one line', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', SERVICE_JWT_SECRET: secret });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SERVICE_ENCRYPTION_KEY/);
    expect(message).toMatch(/MINIO_ACCESS_KEY/);
    expect(message).not.toContain('\n');
  });
});

describe('API metrics placement', () => {
  test('defaults: on the public port, no token', () => {
    const c = loadConfig({ SERVICE_JWT_SECRET: secret });
    expect(c.metrics.api).toBeNull();
    expect(c.metrics.apiToken).toBeNull();
  });

  test('a port moves /metrics to its own listener (127.0.0.1 unless told); a token is at least 16 characters', () => {
    const c = loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_METRICS_PORT: '9100', SERVICE_METRICS_TOKEN: 't'.repeat(16) });
    expect(c.metrics.api).toEqual({ host: '127.0.0.1', port: 9100 });
    expect(c.metrics.apiToken).toBe('t'.repeat(16));
    expect(loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_METRICS_PORT: '9100', SERVICE_METRICS_HOST: '0.0.0.0' }).metrics.api?.host).toBe('0.0.0.0');
    expect(() => loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_METRICS_TOKEN: 'short' })).toThrow(/SERVICE_METRICS_TOKEN/);
    expect(() => loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_METRICS_PORT: '70000' })).toThrow(/SERVICE_METRICS_PORT/);
  });
});
