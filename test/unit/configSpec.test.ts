import { z } from 'zod';
import { loadConfig, productionRefusals } from '../../lib/config';
import { bool, list, optionalInt, splitList } from '../../lib/config/schemas';
import { combined, envKeys, envSchema, fixed, keyDocs, setting, valuesOf } from '../../lib/config/settings';

const secret = 's'.repeat(32);

describe('the spec machinery', () => {
  const spec = {
    a: setting('A', z.string().optional().default('x'), { meaning: 'a', example: 'x' }),
    group: {
      b: setting('B', z.coerce.number().optional().default(1), { meaning: 'b' }),
      pair: combined({ c: setting('C', z.string().optional(), { meaning: 'c' }), d: setting('D', z.string().optional(), { meaning: 'd' }) }, ({ c, d }) => (c && d ? `${c}+${d}` : null)),
      constant: fixed({ n: null }),
    },
  };

  test('envKeys lists every variable once, combined parts included, in spec order', () => {
    expect(envKeys(spec)).toEqual(['A', 'B', 'C', 'D']);
  });

  test('keyDocs gives each key its doc and its top-level section', () => {
    expect(keyDocs(spec).map(({ env, section, doc }) => [env, section, doc.meaning])).toEqual([
      ['A', '', 'a'],
      ['B', 'group', 'b'],
      ['C', 'group', 'c'],
      ['D', 'group', 'd'],
    ]);
  });

  test('envSchema names the variable in its issues', () => {
    const result = envSchema(spec).safeParse({ B: 'nope' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path)).toEqual([['B']]);
  });

  test('valuesOf builds the tree: settings, combined values, fixed values', () => {
    expect(valuesOf(spec, envSchema(spec).parse({ C: 'c', D: 'd' }))).toEqual({ a: 'x', group: { b: 1, pair: 'c+d', constant: { n: null } } });
    expect(valuesOf(spec, envSchema(spec).parse({ C: 'c' })).group.pair).toBeNull();
  });
});

describe('value schemas', () => {
  test('lists are split on commas, trimmed, empties dropped', () => {
    expect(splitList(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
    expect(list().parse(undefined)).toEqual([]);
  });
  test('booleans and optional integers', () => {
    expect(bool(true).parse(undefined)).toBe(true);
    expect(bool(true).parse('no')).toBe(false);
    expect(optionalInt(1, 10).parse(undefined)).toBeUndefined();
    expect(optionalInt(1, 10).safeParse('11').success).toBe(false);
  });
});

describe('loadConfig: derived values', () => {
  test('the sections, in their order', () => {
    expect(Object.keys(loadConfig({ SERVICE_JWT_SECRET: secret }))).toEqual([
      'env', 'logLevel', 'http', 'jwt', 'auth', 'rateLimits', 'organizations', 'database', 'temporal', 'runs', 'runAdmission', 'runWait',
      'minio', 'mail', 'outbound', 'tools', 'metrics', 'worker', 'content', 'triggers',
    ]);
  });

  test('defaults that come from other keys', () => {
    const c = loadConfig({ SERVICE_JWT_SECRET: secret, SERVICE_PORT: '4000', SERVICE_PLAN_FREE_STORAGE_GB: '2' });
    expect(c.http.publicUrl).toBe('http://127.0.0.1:4000');
    expect(c.organizations.plans).toEqual({
      free: { members: 3, apiCallsPerMonth: 1000, storageBytes: 2 * 1024 ** 3 },
      pro: { members: 20, apiCallsPerMonth: 50_000, storageBytes: 100 * 1024 ** 3 },
      enterprise: { members: null, apiCallsPerMonth: null, storageBytes: null },
    });
    expect(c.content.quotaBytes).toEqual({ free: 2 * 1024 ** 3, pro: 100 * 1024 ** 3, enterprise: null });
    const overridden = loadConfig({ SERVICE_JWT_SECRET: secret, CONTENT_QUOTA_FREE_BYTES: '0', CONTENT_QUOTA_PRO_BYTES: '5', CONTENT_QUOTA_ENTERPRISE_BYTES: '7' });
    expect(overridden.content.quotaBytes).toEqual({ free: null, pro: 5, enterprise: 7 });
  });

  test('caps, nulls and lists', () => {
    const c = loadConfig({
      SERVICE_JWT_SECRET: secret,
      SERVICE_ORGANIZATION_EXPORT_TTL: '30d',
      RUN_MAX_ACTIVE_PER_ORGANIZATION: '0',
      TOOLS_HTTP_ALLOWED_HOSTS: 'a.example, b.example',
      OUTBOUND_PROTECTED_ENDPOINTS: 'db:5432,[::1]:9000',
    });
    expect(c.organizations.exportTtlMs).toBe(7 * 86_400_000);
    expect(c.runAdmission.maxActivePerOrganization).toBeNull();
    expect(c.tools.http.allowedHosts).toEqual(['a.example', 'b.example']);
    expect(c.outbound.protectedEndpoints).toEqual(['db:5432', '[::1]:9000']);
    expect(c.organizations.encryptionKey).toBeNull();
    expect(c.worker.maxCachedWorkflows).toBeUndefined();
    expect(() => loadConfig({ SERVICE_JWT_SECRET: secret, OUTBOUND_PROTECTED_ENDPOINTS: 'no port' })).toThrow(
      'OUTBOUND_PROTECTED_ENDPOINTS: a comma-separated list of host:port',
    );
  });

  test('production refusals read the resulting configuration', () => {
    const c = loadConfig({ SERVICE_JWT_SECRET: secret });
    expect(productionRefusals(c)).toEqual([
      'SERVICE_ENCRYPTION_KEY: required when NODE_ENV=production (at least 32 random characters)',
      'MINIO_ACCESS_KEY/MINIO_SECRET_KEY: the default credentials are refused when NODE_ENV=production',
    ]);
    expect(productionRefusals({ ...c, organizations: { ...c.organizations, encryptionKey: 'k'.repeat(32) }, minio: { ...c.minio, accessKey: 'a', secretKey: 'b' } })).toEqual([]);
  });
});
