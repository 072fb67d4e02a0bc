import { diffSnapshots, maskSecrets } from '../../../domain/audit/mask';
import { slugify } from '../../../domain/organizations/organizationsService';
import {
  applySettingsUpdate,
  cidrSchema,
  defaultSettings,
  isIpAllowed,
  maskStored,
  settingsUpdateSchema,
  withDefaults,
} from '../../../domain/organizations/settingsModel';
import { createSecretBox } from '../../../lib/secrets';

const box = createSecretBox({ encryptionKey: 'k'.repeat(40), jwtSecret: 'j'.repeat(40) });

describe('secrets at rest', () => {
  test('seal/open round trip, random IV, tampering detected, key separation', () => {
    const a = box.seal('a-secret-value-1234');
    const b = box.seal('a-secret-value-1234');
    expect(a.enc).not.toBe(b.enc);
    expect(box.open(a)).toBe('a-secret-value-1234');
    expect(a.last4).toBe('1234');
    expect(box.seal('short').last4).toBe('');
    const raw = Buffer.from(a.enc.slice(3), 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open({ ...a, enc: `v1:${raw.toString('base64url')}` })).toThrow();
    const fromJwt = createSecretBox({ encryptionKey: null, jwtSecret: 'j'.repeat(40) });
    expect(fromJwt.dedicatedKey).toBe(false);
    expect(() => fromJwt.open(a)).toThrow();
  });
});

describe('IP allowlist', () => {
  test('normalises addresses and blocks; matches v4, v6 and v4-mapped v6', () => {
    expect(cidrSchema.parse('10.0.0.1')).toBe('10.0.0.1/32');
    expect(cidrSchema.parse('2001:db8::/32')).toBe('2001:db8::/32');
    expect(cidrSchema.safeParse('10.0.0.0/33').success).toBe(false);
    expect(cidrSchema.safeParse('nope').success).toBe(false);
    expect(isIpAllowed('1.2.3.4', [])).toBe(true);
    expect(isIpAllowed('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isIpAllowed('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isIpAllowed('11.0.0.1', ['10.0.0.0/8'])).toBe(false);
    expect(isIpAllowed('2001:db8::1', ['2001:db8::/32'])).toBe(true);
    expect(isIpAllowed('2001:db9::1', ['2001:db8::/32', '10.0.0.0/8'])).toBe(false);
    expect(isIpAllowed('garbage', ['10.0.0.0/8'])).toBe(false);
  });
});

describe('settings model', () => {
  test('defaults fill a partial stored value', () => {
    expect(withDefaults({}).security.auditLogRetentionDays).toBe(365);
    expect(withDefaults({ general: { timezone: 'Asia/Tokyo' } }).general).toEqual({ ...defaultSettings().general, timezone: 'Asia/Tokyo' });
  });

  test('partial update per group; secrets sealed and masked', () => {
    const update = settingsUpdateSchema.parse({
      security: { requireTwoFactor: true },
      integration: { webhooks: [{ url: 'https://x.example/h', events: ['content.*'], secret: 'whsec_YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4WXZW' }] },
    });
    const next = applySettingsUpdate(defaultSettings(), update, box);
    expect(next.security).toEqual({ ...defaultSettings().security, requireTwoFactor: true });
    expect(next.general).toEqual(defaultSettings().general);
    const hook = next.integration.webhooks[0]!;
    expect(box.open(hook.secret)).toBe('whsec_YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4WXZW');
    expect(maskStored(next.integration).webhooks[0]!.secret).toBe('****WXZW');
  });

  test('validation: time zone, language, strict groups, SSO needs its protocol block', () => {
    expect(settingsUpdateSchema.safeParse({ general: { timezone: 'Europe/Paris' } }).success).toBe(true);
    expect(settingsUpdateSchema.safeParse({ general: { timezone: 'Europe/Nowhere' } }).success).toBe(false);
    expect(settingsUpdateSchema.parse({ general: { language: 'en-gb' } }).general?.language).toBe('en-GB');
    expect(settingsUpdateSchema.safeParse({ general: { color: 'red' } }).success).toBe(false);
    expect(settingsUpdateSchema.safeParse({ integration: { sso: { enabled: true, protocol: 'saml' } } }).success).toBe(false);
  });
});

describe('audit masking and diff', () => {
  test('secret-looking keys and sealed values are masked; only changes are kept', () => {
    expect(maskSecrets({ apiToken: 'x', nested: { password: 'p', ok: 1 }, sealed: box.seal('value-of-length-12') })).toEqual({
      apiToken: '[masked]',
      nested: { password: '[masked]', ok: 1 },
      sealed: '****h-12',
    });
    expect(diffSnapshots({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 2, d: 4 } })).toEqual({ before: { b: { d: 3 } }, after: { b: { d: 4 } } });
    expect(diffSnapshots({ a: [1] }, { a: [1] })).toBeNull();
  });
});

describe('slugs', () => {
  test('derived from names', () => {
    expect(slugify('Acme Corp')).toBe('acme-corp');
    expect(slugify('  Ünïcode & Co!! ')).toBe('unicode-co');
    expect(slugify('!!!')).toMatch(/^org-[0-9a-f]{8}$/);
    expect(slugify('a'.repeat(150))).toHaveLength(100);
  });
});
