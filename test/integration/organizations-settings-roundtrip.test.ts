import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Issue 22: a read-modify-write of the settings document. What GET answers can be sent back with one change: the
 * read-only parts (integration.apiKeys, the masks of secrets) are accepted unchanged and ignored; changing them is a
 * 422 naming the field.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

const settingsPath = (t: TestTenant) => `/api/v1/organizations/${t.organizationId}/settings`;

async function storedSettings(t: TestTenant): Promise<{ integration: { thirdParty: Record<string, { secrets: Record<string, unknown> }>; sso: { oidc: { clientSecret: unknown } } } }> {
  const row = await api.deps.db('organizations').where({ id: t.organizationId }).first('settings');
  return row.settings;
}

async function tenantWithSecrets(): Promise<TestTenant> {
  const t = await createTestTenant(api);
  const put = await api.request('PUT', settingsPath(t), {
    token: t.owner.token,
    body: {
      security: { auditLogRetentionDays: 90 },
      integration: {
        thirdParty: { crm: { config: { region: 'eu' }, secrets: { apiToken: 'crm-token-value-0001' } } },
        sso: { enabled: false, protocol: 'oidc', oidc: { issuer: 'https://id.example.com', clientId: 'loom', clientSecret: 'sso-client-secret-0002' } },
      },
    },
  });
  expect(put.status).toBe(200);
  return t;
}

test('the document GET answers, sent back with a new name, is accepted and keeps every secret', async () => {
  const t = await tenantWithSecrets();
  const before = await storedSettings(t);
  const read = await api.request('GET', settingsPath(t), { token: t.owner.token });
  expect(read.status).toBe(200);
  expect(read.body.integration.apiKeys).toEqual({ href: `/api/v1/organizations/${t.organizationId}/api-keys` });
  expect(read.body.integration.thirdParty.crm.secrets.apiToken).toBe('****0001');
  expect(read.body.integration.sso.oidc.clientSecret).toBe('****0002');

  const document = structuredClone(read.body);
  document.general.name = 'Renamed by a read-modify-write';
  const put = await api.request('PUT', settingsPath(t), { token: t.owner.token, body: document });
  expect(put.status).toBe(200);
  expect(put.body).toEqual({ ...read.body, general: { ...read.body.general, name: 'Renamed by a read-modify-write' } });

  // The masks were not stored as secrets: the sealed values are the ones written before.
  const after = await storedSettings(t);
  expect(after.integration.thirdParty.crm.secrets.apiToken).toEqual(before.integration.thirdParty.crm.secrets.apiToken);
  expect(after.integration.sso.oidc.clientSecret).toEqual(before.integration.sso.oidc.clientSecret);
});

test('changing the read-only apiKeys link is a 422 naming the field', async () => {
  const t = await tenantWithSecrets();
  const read = await api.request('GET', settingsPath(t), { token: t.owner.token });
  const document = structuredClone(read.body);
  document.integration.apiKeys.href = '/api/v1/organizations/elsewhere/api-keys';
  const put = await api.request('PUT', settingsPath(t), { token: t.owner.token, body: document });
  expect(put.status).toBe(422);
  expect(put.body.error.code).toBe('UNPROCESSABLE');
  expect(put.body.error.message).toContain('integration.apiKeys is read-only');
  expect(put.body.error.details).toEqual([{ path: 'body.integration.apiKeys.href', problem: expect.stringContaining('read-only') }]);

  const extra = await api.request('PUT', settingsPath(t), { token: t.owner.token, body: { integration: { apiKeys: { href: read.body.integration.apiKeys.href, count: 3 } } } });
  expect(extra.status).toBe(400);
  expect(extra.body.error.details).toEqual([{ path: 'body.integration.apiKeys.count', problem: expect.any(String) }]);
});

test('a mask that is not the stored secret\'s is refused, naming the field; a mask never becomes a secret', async () => {
  const t = await tenantWithSecrets();
  const wrong = await api.request('PUT', settingsPath(t), {
    token: t.owner.token,
    body: { integration: { thirdParty: { crm: { secrets: { apiToken: '****9999' } } } } },
  });
  expect(wrong.status).toBe(422);
  expect(wrong.body.error.details).toEqual([{ path: 'body.integration.thirdParty.crm.secrets.apiToken', problem: expect.stringContaining('mask') }]);

  const none = await api.request('PUT', settingsPath(t), {
    token: t.owner.token,
    body: { integration: { thirdParty: { crm: { secrets: { other: '****' } } } } },
  });
  expect(none.status).toBe(422);
  expect(none.body.error.details).toEqual([{ path: 'body.integration.thirdParty.crm.secrets.other', problem: expect.stringContaining('no') }]);

  const sso = await api.request('PUT', settingsPath(t), {
    token: t.owner.token,
    body: { integration: { sso: { enabled: true, protocol: 'oidc', oidc: { issuer: 'https://id.example.com', clientId: 'loom', clientSecret: '****0003' } } } },
  });
  expect(sso.status).toBe(422);
  expect(sso.body.error.details).toEqual([{ path: 'body.integration.sso.oidc.clientSecret', problem: expect.any(String) }]);

  // A short value that is not a mask is still refused by the schema.
  const short = await api.request('PUT', settingsPath(t), { token: t.owner.token, body: { integration: { thirdParty: { crm: { secrets: { apiToken: 'short' } } } } } });
  expect(short.status).toBe(400);
});
