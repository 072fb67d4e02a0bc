import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * SSO sign-in with OpenID Connect (docs/auth.md#single-sign-on-openid-connect), end to end against a real OpenID
 * Provider (`oidc-provider` 9, test/helpers/oidcProvider.mjs) on 127.0.0.1, which the outbound policy admits only
 * because these API instances list it in TOOLS_HTTP_ALLOWED_HOSTS. The test plays the browser: it follows the
 * redirects with the provider's cookies, signs in at the provider as a chosen e-mail, and hands the code and state
 * the provider sends back to the API's callback.
 */
const CLIENT_ID = 'loom-test';
const CLIENT_SECRET = 'oidc-client-secret-0123456789abcdef';

let api: TestApi;
let provider: ChildProcess;
let issuer: string;

async function startProvider(redirectUri: string): Promise<{ child: ChildProcess; issuer: string }> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'helpers', 'oidcProvider.mjs')], {
    env: {
      ...process.env,
      OIDC_TEST_CLIENTS: JSON.stringify([
        { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] },
      ]),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /issuer (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`OIDC provider exited with ${code}`)));
  });
  return { child, issuer: url };
}

beforeAll(async () => {
  api = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1,localhost' });
  ({ child: provider, issuer } = await startProvider(`${api.config.http.publicUrl.replace(/\/+$/, '')}/api/auth/sso/callback`));
});
afterAll(async () => {
  provider?.kill('SIGTERM');
  await api?.close();
});

interface SsoOptions {
  issuer?: string;
  allowedEmailDomains?: string[];
  jitProvisioning?: boolean;
  defaultRole?: 'admin' | 'member' | 'viewer';
}

/** A tenant whose SSO points at the test provider; the client secret lives in the organization's secrets. */
async function ssoTenant(options: SsoOptions = {}): Promise<TestTenant & { slug: string }> {
  const tenant = await createTestTenant(api);
  const token = tenant.owner.token;
  expect((await api.request('PUT', '/api/v1/secrets/SSO_CLIENT_SECRET', { token, body: { value: CLIENT_SECRET } })).status).toBeLessThan(300);
  const res = await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, {
    token,
    body: {
      integration: {
        sso: {
          enabled: true,
          protocol: 'oidc',
          oidc: {
            issuer: options.issuer ?? issuer,
            clientId: CLIENT_ID,
            clientSecretName: 'SSO_CLIENT_SECRET',
            allowedEmailDomains: options.allowedEmailDomains ?? ['corp.example'],
            defaultRole: options.defaultRole ?? 'viewer',
            jitProvisioning: options.jitProvisioning ?? true,
          },
        },
      },
    },
  });
  expect(res.status).toBe(200);
  const org = await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug');
  return { ...tenant, slug: org.slug };
}

/** Plays the browser from the API's authorize redirect to the provider's redirect back; answers the callback query. */
async function browserSignIn(slug: string, email: string): Promise<{ authorizationUrl: URL; callbackQuery: string }> {
  const start = await fetch(`${api.baseUrl}/api/auth/sso/${slug}/authorize`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const authorizationUrl = new URL(start.headers.get('location')!);
  const cookies = new Map<string, string>();
  let url = authorizationUrl.toString();
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${url}: ${res.status} ${await res.text()}`);
    const next = new URL(location, url);
    if (next.pathname === '/api/auth/sso/callback') return { authorizationUrl, callbackQuery: next.search };
    if (next.pathname.startsWith('/interaction/')) next.searchParams.set('login', email);
    url = next.toString();
  }
  throw new Error('too many redirects');
}

const callback = (query: string) => api.request('GET', `/api/auth/sso/callback${query}`);

test('sign-in with PKCE, state and nonce; just-in-time membership with the default role; no password', async () => {
  const tenant = await ssoTenant();
  const email = `alice-${randomUUID().slice(0, 8)}@corp.example`;
  const { authorizationUrl, callbackQuery } = await browserSignIn(tenant.slug, email);
  expect(authorizationUrl.origin).toBe(issuer);
  const p = authorizationUrl.searchParams;
  expect(p.get('response_type')).toBe('code');
  expect(p.get('client_id')).toBe(CLIENT_ID);
  expect(p.get('code_challenge_method')).toBe('S256');
  expect(p.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(p.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(p.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // The state is stored hashed only.
  expect(await api.deps.db('sso_login_states').where({ state_hash: p.get('state') }).first()).toBeUndefined();

  const res = await callback(callbackQuery);
  expect(res.status).toBe(200);
  expect(res.body.user.email).toBe(email);
  const me = await api.request('GET', '/api/auth/me', { token: res.body.tokens.accessToken });
  expect(me.status).toBe(200);
  expect(me.body.organizationID).toBe(tenant.organizationId);
  expect(me.body.user.email_verified).toBe(true);
  const user = await api.deps.db('users').where({ email }).first();
  expect(user.password_hash).toBeNull();
  const membership = await api.deps.db('memberships').where({ organization_id: tenant.organizationId, user_id: user.id }).first();
  expect(membership.role).toBe('viewer');
  expect((await api.request('GET', '/api/v1/workflows', { token: res.body.tokens.accessToken })).status).toBe(200);

  // A replayed state (the same callback again) is refused, and signs nobody in.
  const replay = await callback(callbackQuery);
  expect(replay.status).toBe(401);
  expect(replay.body.error).toEqual({ code: 'INVALID_TOKEN', message: 'unknown, expired or already used SSO state; start the sign-in again', request_id: expect.any(String) });
});

test('an e-mail outside the allowed domains is refused and no account is made', async () => {
  const tenant = await ssoTenant();
  const email = `mallory-${randomUUID().slice(0, 8)}@evil.example`;
  const res = await callback((await browserSignIn(tenant.slug, email)).callbackQuery);
  expect(res.status).toBe(403);
  expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: 'e-mail addresses of evil.example may not sign in to this organization with SSO', request_id: expect.any(String) });
  expect(await api.deps.db('users').where({ email }).first()).toBeUndefined();
});

test('a wrong issuer is refused: the discovery document must declare the configured issuer', async () => {
  // Same provider, reached under another name: its discovery document names the 127.0.0.1 issuer.
  const tenant = await ssoTenant({ issuer: issuer.replace('127.0.0.1', 'localhost') });
  const res = await api.request('GET', `/api/auth/sso/${tenant.slug}/authorize`);
  expect(res.status).toBe(422);
  expect(res.body.error.code).toBe('UNPROCESSABLE');
  expect(res.body.error.message).toBe(
    `the identity provider at ${issuer.replace('127.0.0.1', 'localhost')} declares the issuer ${issuer}; integration.sso.oidc.issuer must be exactly its issuer`,
  );
});

test('without just-in-time provisioning only members sign in; an existing member keeps their role', async () => {
  const tenant = await ssoTenant({ jitProvisioning: false });
  const stranger = `carol-${randomUUID().slice(0, 8)}@corp.example`;
  const refused = await callback((await browserSignIn(tenant.slug, stranger)).callbackQuery);
  expect(refused.status).toBe(403);
  expect(refused.body.error.message).toBe(`${stranger} is not a member of this organization; ask an administrator for an invitation`);

  const memberEmail = `dave-${randomUUID().slice(0, 8)}@corp.example`;
  const [row] = await api.deps.db('users').insert({ email: memberEmail, name: 'Dave' }).returning('id');
  await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: row.id, role: 'admin' });
  const ok = await callback((await browserSignIn(tenant.slug, memberEmail)).callbackQuery);
  expect(ok.status).toBe(200);
  expect(ok.body.user.id).toBe(row.id);
  const membership = await api.deps.db('memberships').where({ organization_id: tenant.organizationId, user_id: row.id }).first();
  expect(membership.role).toBe('admin');
});

test('the issuer goes through the outbound policy: a private address not allowed by the operator is refused', async () => {
  const strict = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '' });
  try {
    const tenant = await ssoTenant();
    const res = await strict.request('GET', `/api/auth/sso/${tenant.slug}/authorize`);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^the SSO issuer is refused by the outbound policy: .*TOOLS_HTTP_ALLOWED_HOSTS/);
  } finally {
    await strict.close();
  }
});

test('unknown organization or SSO not enabled: 404', async () => {
  const tenant = await createTestTenant(api);
  const org = await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug');
  const res = await api.request('GET', `/api/auth/sso/${org.slug}/authorize`);
  expect(res.status).toBe(404);
  expect(res.body.error.message).toBe('this organization has no OpenID Connect sign-in enabled');
});
