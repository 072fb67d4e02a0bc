import { weakenedSettings } from '../../../domain/organizations/stepUp';
import { defaultSettings, type StoredSettings } from '../../../domain/organizations/settingsModel';

/** Which settings changes lower a protection, and so need a person (domain/organizations/stepUp.ts). */

const sealed = { enc: 'v1:x', last4: 'abcd' } as unknown as NonNullable<NonNullable<StoredSettings['integration']['sso']>['oidc']>['clientSecret'];

function settings(change: (s: StoredSettings) => void): StoredSettings {
  const s = defaultSettings();
  change(s);
  return s;
}

const sso = (overrides: Record<string, unknown> = {}): StoredSettings['integration']['sso'] => ({
  enabled: true,
  protocol: 'oidc',
  oidc: {
    issuer: 'https://idp.example.com',
    clientId: 'loom',
    clientSecret: sealed,
    clientSecretName: null,
    allowedEmailDomains: ['example.com'],
    defaultRole: 'member',
    jitProvisioning: false,
    ...overrides,
  },
});

test('two-factor requirement: turning it off weakens, turning it on does not', () => {
  const on = settings((s) => (s.security.requireTwoFactor = true));
  const off = defaultSettings();
  expect(weakenedSettings(on, off)).toEqual(['security.requireTwoFactor']);
  expect(weakenedSettings(off, on)).toEqual([]);
  expect(weakenedSettings(on, on)).toEqual([]);
});

test('IP allowlist: emptied or admitting a new address weakens; dropping or narrowing blocks does not', () => {
  const list = (...blocks: string[]) => settings((s) => (s.security.ipAllowlist = blocks));
  const before = list('10.1.0.0/16', '2001:db8::/32', '127.0.0.1/32');
  for (const after of [list(), list('10.0.0.0/8'), list('10.1.0.0/16', '192.0.2.1/32'), list('2001:db8::/31'), list('::ffff:10.1.0.0/112'), list('not-a-block')]) {
    expect(weakenedSettings(before, after)).toEqual(['security.ipAllowlist']);
  }
  for (const after of [before, list('10.1.0.0/16'), list('10.1.2.0/24', '2001:db8:1::/48'), list('127.0.0.1/32')]) {
    expect(weakenedSettings(before, after)).toEqual([]);
  }
  expect(weakenedSettings(list(), before)).toEqual([]);
});

test('idle timeout: lengthened or removed weakens; set or shortened does not', () => {
  const timeout = (minutes: number | null) => settings((s) => (s.security.sessionTimeoutMinutes = minutes));
  expect(weakenedSettings(timeout(30), timeout(60))).toEqual(['security.sessionTimeoutMinutes']);
  expect(weakenedSettings(timeout(30), timeout(null))).toEqual(['security.sessionTimeoutMinutes']);
  expect(weakenedSettings(timeout(null), timeout(30))).toEqual([]);
  expect(weakenedSettings(timeout(30), timeout(10))).toEqual([]);
});

test('SSO: enabling or re-pointing it weakens; turning it off, removing it or changing only the client secret does not', () => {
  const withSso = (value: StoredSettings['integration']['sso']) => settings((s) => (s.integration.sso = value));
  const current = withSso(sso());
  expect(weakenedSettings(defaultSettings(), current)).toEqual(['integration.sso']);
  expect(weakenedSettings(withSso({ ...sso()!, enabled: false }), current)).toEqual(['integration.sso']);
  for (const change of [
    { issuer: 'https://evil.example.net' },
    { clientId: 'other' },
    { jitProvisioning: true },
    { defaultRole: 'admin' },
    { allowedEmailDomains: [] },
    { allowedEmailDomains: ['example.com', 'example.org'] },
  ]) {
    expect(weakenedSettings(current, withSso(sso(change)))).toEqual(['integration.sso']);
  }
  expect(weakenedSettings(current, withSso(null))).toEqual([]);
  expect(weakenedSettings(current, withSso({ ...sso()!, enabled: false }))).toEqual([]);
  expect(weakenedSettings(current, withSso(sso({ clientSecret: null, clientSecretName: 'SSO_SECRET' })))).toEqual([]);
  // A document stored before a field existed reads as its default, so the same configuration is no change.
  const { allowedEmailDomains: _d, defaultRole: _r, jitProvisioning: _j, ...older } = sso({ allowedEmailDomains: [] })!.oidc!;
  expect(weakenedSettings(withSso({ enabled: true, protocol: 'oidc', oidc: older }), withSso(sso({ allowedEmailDomains: [] })))).toEqual([]);
});

test('several at once are all named', () => {
  const before = settings((s) => {
    s.security.requireTwoFactor = true;
    s.security.ipAllowlist = ['10.0.0.0/8'];
  });
  expect(weakenedSettings(before, defaultSettings())).toEqual(['security.requireTwoFactor', 'security.ipAllowlist']);
});
