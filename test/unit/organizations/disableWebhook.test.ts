import { disableWebhook, type StoredWebhook } from '../../../domain/organizations/settingsModel';

const hook = (id: string, enabled: boolean): StoredWebhook => ({
  id,
  url: `https://example.com/${id}`,
  events: ['run.*'],
  enabled,
  secret: { enc: 'v1:sealed', last4: '1234' },
});

describe('disableWebhook (automatic disabling of a failing endpoint)', () => {
  test('turns the one endpoint off and leaves the stored document otherwise as it was', () => {
    const stored = { security: { ipAllowlist: [] }, integration: { webhooks: [hook('a', true), hook('b', true)] } };
    const change = disableWebhook(stored, 'b');
    expect(change?.webhook).toMatchObject({ id: 'b', enabled: false });
    // No defaults are written into the document, and the input is not mutated.
    expect(change?.settings).toEqual({ security: { ipAllowlist: [] }, integration: { webhooks: [hook('a', true), hook('b', false)] } });
    expect(stored.integration.webhooks[1]!.enabled).toBe(true);
  });

  test('null when the endpoint is gone, already off, or there are no settings', () => {
    expect(disableWebhook({ integration: { webhooks: [hook('a', false)] } }, 'a')).toBeNull();
    expect(disableWebhook({ integration: { webhooks: [hook('a', true)] } }, 'x')).toBeNull();
    expect(disableWebhook(null, 'a')).toBeNull();
    expect(disableWebhook({}, 'a')).toBeNull();
  });
});
