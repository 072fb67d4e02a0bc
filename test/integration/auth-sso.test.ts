import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { startDnsTxtServer, type DnsTxtServer } from '../helpers/dnsTxtServer';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, createTestUser, type TestTenant, type TestUser } from '../helpers/tenants';

/**
 * SSO sign-in with OpenID Connect (docs/auth.md#single-sign-on-openid-connect), end to end against a real OpenID
 * Provider (`oidc-provider` 9, test/helpers/oidcProvider.mjs) on 127.0.0.1, which the outbound policy admits only
 * because these API instances list it in TOOLS_HTTP_ALLOWED_HOSTS. The test plays the browser: it follows the
 * redirects with the provider's cookies, signs in at the provider as a chosen e-mail, and hands the code and state
 * the provider sends back to the API's callback. The provider's subject is the e-mail the test signs in as, verified:
 * it plays an organization admin's own provider asserting whatever e-mail they like.
 *
 * E-mail domains are proven with a DNS TXT record answered by test/helpers/dnsTxtServer.ts, the API's verification
 * resolver (SERVICE_DOMAIN_VERIFICATION_DNS_SERVERS). Each tenant gets a domain of its own.
 */
const CLIENT_ID = 'loom-test';
const CLIENT_SECRET = 'oidc-client-secret-0123456789abcdef';

let api: TestApi;
let provider: ChildProcess;
let issuer: string;
let dns: DnsTxtServer;

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
  dns = await startDnsTxtServer();
  api = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1,localhost', SERVICE_DOMAIN_VERIFICATION_DNS_SERVERS: dns.address });
  ({ child: provider, issuer } = await startProvider(`${api.config.http.publicUrl.replace(/\/+$/, '')}/api/auth/sso/callback`));
});
afterAll(async () => {
  provider?.kill('SIGTERM');
  await api?.close();
  await dns?.close();
});

interface SsoOptions {
  issuer?: string;
  allowedEmailDomains?: string[];
  jitProvisioning?: boolean;
  defaultRole?: 'admin' | 'member' | 'viewer';
  /** Prove the tenant's domain first (registered, TXT published, verified). */
  verifiedDomain?: boolean;
}

const uniqueDomain = (): string => `d${randomUUID().slice(0, 8)}.example`;
const short = (): string => randomUUID().slice(0, 8);

/** Registers `domain` for the organization, publishes its TXT record in the test DNS and verifies it: 200. */
async function proveDomain(token: string, organizationId: string, domain: string): Promise<string> {
  const registered = await api.request('POST', `/api/v1/organizations/${organizationId}/domains`, { token, body: { domain } });
  expect(registered.status).toBe(201);
  dns.setTxt(registered.body.verification.recordName, [registered.body.verification.recordValue]);
  const verified = await api.request('POST', `/api/v1/organizations/${organizationId}/domains/${registered.body.id}/verify`, { token });
  expect(verified.status).toBe(200);
  expect(verified.body.status).toBe('verified');
  return registered.body.id as string;
}

/**
 * A tenant whose SSO points at the test provider; the client secret lives in the organization's secrets. Its
 * e-mail domain is `domain` (allowed by default; proven only with `verifiedDomain`).
 */
async function ssoTenant(options: SsoOptions = {}): Promise<TestTenant & { slug: string; domain: string }> {
  const domain = uniqueDomain();
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
            allowedEmailDomains: options.allowedEmailDomains ?? [domain],
            defaultRole: options.defaultRole ?? 'viewer',
            jitProvisioning: options.jitProvisioning ?? true,
          },
        },
      },
    },
  });
  expect(res.status).toBe(200);
  if (options.verifiedDomain) await proveDomain(token, tenant.organizationId, domain);
  const org = await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug');
  return { ...tenant, slug: org.slug, domain };
}

/** Plays the browser from the API's authorize redirect to the provider's redirect back; answers the callback query. */
async function browserSignIn(slug: string, email: string): Promise<{ authorizationUrl: URL; callbackQuery: string }> {
  const start = await fetch(`${api.baseUrl}/api/auth/sso/${slug}/authorize`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  return browserFlow(new URL(start.headers.get('location')!), email);
}

/** From the provider's authorization URL, signed in there as `email`, to the redirect back to the API. */
async function browserFlow(authorizationUrl: URL, email: string): Promise<{ authorizationUrl: URL; callbackQuery: string }> {
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

/** A user signed in with a password-style session (not SSO), with `email`, and a member of the tenant with `role`. */
async function memberOf(tenant: TestTenant, role: 'owner' | 'admin' | 'member' | 'viewer', email?: string): Promise<TestUser> {
  const user = await createTestUser(api, tenant.organizationId);
  if (email) await api.deps.db('users').where({ id: user.userId }).update({ email });
  await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: user.userId, role });
  return { ...user, email: email ?? user.email };
}

/** The user links their identity `providerLogin` at the tenant's provider from their own session: 200 linked. */
async function link(slug: string, user: TestUser, providerLogin: string) {
  const started = await api.request('POST', `/api/auth/sso/${slug}/link`, { token: user.token });
  expect(started.status).toBe(200);
  const res = await callback((await browserFlow(new URL(started.body.authorizationUrl), providerLogin)).callbackQuery);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ user: expect.objectContaining({ id: user.userId }), linked: { issuer, organizationID: expect.any(String) } });
  expect(res.body.tokens).toBeUndefined();
  return res;
}

const sessionCount = async (userId: string): Promise<number> => Number((await api.deps.db('sessions').where({ user_id: userId }).count({ n: '*' }))[0]!.n);

test('sign-in with PKCE, state and nonce; just-in-time account in a verified domain, linked by (issuer, sub); no password', async () => {
  const tenant = await ssoTenant({ verifiedDomain: true });
  const email = `alice-${short()}@${tenant.domain}`;
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
  // The identity is linked by issuer (hashed into the spec's varchar(50) provider) and subject, never by e-mail.
  const identity = await api.deps.db('accounts').where({ user_id: user.id }).first();
  expect(identity).toMatchObject({ provider_account_id: email, issuer });
  expect(identity.provider).toMatch(/^oidc:[A-Za-z0-9_-]{43}$/);
  const session = await api.deps.db('sessions').where({ user_id: user.id }).first();
  expect(session.sso_organization_id).toBe(tenant.organizationId);

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

// Before issue 40 an existing member signed in here by e-mail alone: the takeover the identity model closes. Now the
// member links the identity from their own session first.
test('without just-in-time provisioning: a stranger is refused, a member by e-mail alone too, until they link; the role is kept', async () => {
  const tenant = await ssoTenant({ jitProvisioning: false });
  const stranger = `carol-${short()}@${tenant.domain}`;
  const refused = await callback((await browserSignIn(tenant.slug, stranger)).callbackQuery);
  expect(refused.status).toBe(403);
  expect(refused.body.error.message).toBe(`${stranger} is not a member of this organization; ask an administrator for an invitation`);

  const member = await memberOf(tenant, 'admin', `dave-${short()}@${tenant.domain}`);
  const byEmail = await callback((await browserSignIn(tenant.slug, member.email)).callbackQuery);
  expect(byEmail.status).toBe(409);
  expect(byEmail.body.error.code).toBe('SSO_ACCOUNT_EXISTS');
  expect(byEmail.body.error.message).toBe(
    `an account for ${member.email} already exists and this identity is not linked to it; sign in with your password, then link it with POST /api/auth/sso/${tenant.slug}/link`,
  );

  await link(tenant.slug, member, member.email);
  const ok = await callback((await browserSignIn(tenant.slug, member.email)).callbackQuery);
  expect(ok.status).toBe(200);
  expect(ok.body.user.id).toBe(member.userId);
  const membership = await api.deps.db('memberships').where({ organization_id: tenant.organizationId, user_id: member.userId }).first();
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

// ---------------------------------------------------------------------------------------------------------------
// Issue 40, finding 1: an admin who points their organization's SSO at a provider they control asserts a victim's
// e-mail. None of these may open a session as the victim, add them anywhere, or link the admin's identity to them.

describe('an admin-controlled provider asserting a victim e-mail gets no session as the victim', () => {
  async function expectNoTakeover(victim: TestUser, res: { status: number; body: { error?: { code: string }; tokens?: unknown } }, sessionsBefore: number) {
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe('SSO_ACCOUNT_EXISTS');
    expect(res.body.tokens).toBeUndefined();
    expect(await sessionCount(victim.userId)).toBe(sessionsBefore);
    expect(await api.deps.db('accounts').where({ user_id: victim.userId })).toEqual([]);
  }

  test('JIT on, any domain allowed: a victim outside the organization', async () => {
    const attacker = await ssoTenant({ jitProvisioning: true, allowedEmailDomains: [] });
    const victimOrg = await createTestTenant(api);
    const victim = victimOrg.owner;
    const before = await sessionCount(victim.userId);
    await expectNoTakeover(victim, await callback((await browserSignIn(attacker.slug, victim.email)).callbackQuery), before);
    expect(await api.deps.db('memberships').where({ organization_id: attacker.organizationId, user_id: victim.userId })).toEqual([]);
  });

  test("JIT on: a victim whose e-mail is in the attacker's own verified domain (an account that existed before)", async () => {
    const attacker = await ssoTenant({ jitProvisioning: true, verifiedDomain: true });
    const victim = await createTestUser(api);
    const email = `victim-${short()}@${attacker.domain}`;
    await api.deps.db('users').where({ id: victim.userId }).update({ email });
    const before = await sessionCount(victim.userId);
    await expectNoTakeover(victim, await callback((await browserSignIn(attacker.slug, email)).callbackQuery), before);
  });

  test("JIT off: the organization's owner and a member of the admin's own organization", async () => {
    const attacker = await ssoTenant({ jitProvisioning: false, allowedEmailDomains: [] });
    const owner = attacker.owner;
    const member = await memberOf(attacker, 'member');
    for (const victim of [owner, member]) {
      const before = await sessionCount(victim.userId);
      await expectNoTakeover(victim, await callback((await browserSignIn(attacker.slug, victim.email)).callbackQuery), before);
    }
  });

  test('JIT off: a victim outside the organization is refused as a non-member', async () => {
    const attacker = await ssoTenant({ jitProvisioning: false, allowedEmailDomains: [] });
    const victim = (await createTestTenant(api)).owner;
    const before = await sessionCount(victim.userId);
    const res = await callback((await browserSignIn(attacker.slug, victim.email)).callbackQuery);
    expect([403, 409]).toContain(res.status);
    expect(res.body.tokens).toBeUndefined();
    expect(await sessionCount(victim.userId)).toBe(before);
  });
});

test('JIT with an unverified domain is refused and makes no account; with the domain verified it creates one', async () => {
  const tenant = await ssoTenant({ jitProvisioning: true });
  const email = `erin-${short()}@${tenant.domain}`;
  const refused = await callback((await browserSignIn(tenant.slug, email)).callbackQuery);
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('SSO_DOMAIN_NOT_VERIFIED');
  expect(refused.body.error.message).toBe(
    `${tenant.domain} is not a verified domain of this organization, so single sign-on may not create or join an account for ${email}; ask an administrator for an invitation`,
  );
  expect(await api.deps.db('users').where({ email }).first()).toBeUndefined();

  await proveDomain(tenant.owner.token, tenant.organizationId, tenant.domain);
  const created = await callback((await browserSignIn(tenant.slug, email)).callbackQuery);
  expect(created.status).toBe(200);
  expect(created.body.user.email).toBe(email);
});

test('the victim links the identity from their own session, then signs in with SSO: a session scoped to that organization', async () => {
  const tenant = await ssoTenant({ jitProvisioning: false });
  const victim = await memberOf(tenant, 'member', `frank-${short()}@${tenant.domain}`);
  // The victim also belongs to another organization, which the SSO session must not reach.
  const other = await createTestTenant(api);
  await api.deps.db('memberships').insert({ organization_id: other.organizationId, user_id: victim.userId, role: 'admin' });

  await link(tenant.slug, victim, victim.email);
  const identity = await api.deps.db('accounts').where({ user_id: victim.userId }).first();
  expect(identity.provider_account_id).toBe(victim.email);
  const signedIn = await callback((await browserSignIn(tenant.slug, victim.email)).callbackQuery);
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.user.id).toBe(victim.userId);
  const token = signedIn.body.tokens.accessToken as string;
  expect((await api.request('GET', '/api/v1/workflows', { token })).status).toBe(200);
  expect((await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/members`, { token })).status).toBe(200);

  // Switching to the other organization is refused; naming it in a path answers as if it did not exist.
  const switched = await api.request('POST', '/api/auth/switch-organization', { token, body: { organizationID: other.organizationId } });
  expect(switched.status).toBe(403);
  expect(switched.body.error.code).toBe('SSO_SESSION_SCOPED');
  expect(switched.body.error.message).toBe(
    "this session was opened by an organization's single sign-on and acts in that organization only; sign in with your password to use another organization",
  );
  expect((await api.request('GET', `/api/v1/organizations/${other.organizationId}/members`, { token })).status).toBe(404);
  expect((await api.request('GET', `/api/v1/organizations/${other.organizationId}/settings`, { token })).status).toBe(404);
  // Nor does it list the other organization (not even its name).
  const listed = await api.request('GET', '/api/v1/organizations', { token });
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((o: { id: string }) => o.id)).toEqual([tenant.organizationId]);

  // A refresh keeps the scope.
  const refreshed = await api.request('POST', '/api/auth/refresh', { body: { refreshToken: signedIn.body.tokens.refreshToken } });
  expect(refreshed.status).toBe(200);
  const again = await api.request('POST', '/api/auth/switch-organization', {
    token: refreshed.body.accessToken,
    body: { organizationID: other.organizationId },
  });
  expect(again.status).toBe(403);
  expect(again.body.error.code).toBe('SSO_SESSION_SCOPED');
  expect((await api.request('GET', `/api/v1/organizations/${other.organizationId}/members`, { token: refreshed.body.accessToken })).status).toBe(404);

  // Nor can the SSO session add ways into the account: linking needs a session opened with the password.
  const relink = await api.request('POST', `/api/auth/sso/${tenant.slug}/link`, { token: refreshed.body.accessToken });
  expect(relink.status).toBe(403);
  expect(relink.body.error.code).toBe('SSO_SESSION_SCOPED');

  // The password session still switches freely.
  expect((await api.request('POST', '/api/auth/switch-organization', { token: victim.token, body: { organizationID: other.organizationId } })).status).toBe(200);
});

test('identities: listed to their owner; unlinked from a password session only; the last way into a passwordless account stays', async () => {
  const tenant = await ssoTenant({ jitProvisioning: false });
  const victim = await memberOf(tenant, 'member', `grace-${short()}@${tenant.domain}`);
  await link(tenant.slug, victim, victim.email);
  const listed = await api.request('GET', '/api/auth/identities', { token: victim.token });
  expect(listed.status).toBe(200);
  expect(listed.body.data).toEqual([{ id: expect.any(String), issuer, subject: victim.email, linkedAt: expect.any(String) }]);
  const identityId = listed.body.data[0].id as string;

  // A session opened by that SSO may not unlink; another user gets 404 for the id.
  const sso = await callback((await browserSignIn(tenant.slug, victim.email)).callbackQuery);
  const fromSso = await api.request('DELETE', `/api/auth/identities/${identityId}`, { token: sso.body.tokens.accessToken });
  expect(fromSso.status).toBe(403);
  expect(fromSso.body.error.code).toBe('SSO_SESSION_SCOPED');
  const stranger = await memberOf(tenant, 'member', `heidi-${short()}@${tenant.domain}`);
  expect((await api.request('DELETE', `/api/auth/identities/${identityId}`, { token: stranger.token })).status).toBe(404);
  expect((await api.request('GET', '/api/auth/identities', { token: stranger.token })).body.data).toEqual([]);

  // Without a password the identity is the only way in: refused, and nothing changes.
  await api.deps.db('users').where({ id: victim.userId }).update({ password_hash: null });
  const last = await api.request('DELETE', `/api/auth/identities/${identityId}`, { token: victim.token });
  expect(last.status).toBe(409);
  expect(last.body.error.code).toBe('LAST_SIGN_IN_METHOD');
  expect(await api.deps.db('accounts').where({ id: identityId }).first()).toBeDefined();

  // With a password it goes: SSO no longer signs this account in (the e-mail alone does not join it).
  await api.deps.db('users').where({ id: victim.userId }).update({ password_hash: 'x' });
  expect((await api.request('DELETE', `/api/auth/identities/${identityId}`, { token: victim.token })).status).toBe(204);
  expect(await api.deps.db('accounts').where({ id: identityId }).first()).toBeUndefined();
  const audit = await api.deps.db('audit_logs').where({ user_id: victim.userId, action: 'auth.sso_identity_unlinked' }).first();
  expect(audit).toBeDefined();
  const again = await callback((await browserSignIn(tenant.slug, victim.email)).callbackQuery);
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('SSO_ACCOUNT_EXISTS');
});

test('an identity linked to one account cannot be linked to another; an account links one identity per provider; only members link', async () => {
  const tenant = await ssoTenant({ jitProvisioning: false });
  const alice = await memberOf(tenant, 'member', `alice-${short()}@${tenant.domain}`);
  const bob = await memberOf(tenant, 'member', `bob-${short()}@${tenant.domain}`);
  await link(tenant.slug, alice, alice.email);

  const startedByBob = await api.request('POST', `/api/auth/sso/${tenant.slug}/link`, { token: bob.token });
  const stolen = await callback((await browserFlow(new URL(startedByBob.body.authorizationUrl), alice.email)).callbackQuery);
  expect(stolen.status).toBe(409);
  expect(stolen.body.error).toMatchObject({ code: 'SSO_IDENTITY_LINKED', message: 'this identity is already linked to another account' });
  expect(await api.deps.db('accounts').where({ user_id: bob.userId })).toEqual([]);

  const second = await api.request('POST', `/api/auth/sso/${tenant.slug}/link`, { token: alice.token });
  const other = await callback((await browserFlow(new URL(second.body.authorizationUrl), `alt-${short()}@${tenant.domain}`)).callbackQuery);
  expect(other.status).toBe(409);
  expect(other.body.error.message).toBe('your account is already linked to another identity of this provider');

  const outsider = await createTestUser(api);
  const notMember = await api.request('POST', `/api/auth/sso/${tenant.slug}/link`, { token: outsider.token });
  expect(notMember.status).toBe(403);
  expect((await api.request('POST', `/api/auth/sso/${tenant.slug}/link`)).status).toBe(401);
});

describe('verified domains', () => {
  test('register, list, verify by DNS TXT, delete; admins only; another organization cannot verify it meanwhile', async () => {
    const a = await createTestTenant(api);
    const b = await createTestTenant(api);
    const domain = uniqueDomain();
    const base = (org: string) => `/api/v1/organizations/${org}/domains`;

    const registered = await api.request('POST', base(a.organizationId), { token: a.owner.token, body: { domain: `${domain.toUpperCase()}.` } });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      domain,
      status: 'pending',
      verifiedAt: null,
      verification: { recordName: `_loom-verification.${domain}`, recordType: 'TXT', recordValue: expect.stringMatching(/^loom-verification=[A-Za-z0-9_-]{32}$/) },
    });
    const id = registered.body.id as string;
    const again = await api.request('POST', base(a.organizationId), { token: a.owner.token, body: { domain } });
    expect(again.status).toBe(409);
    expect((await api.request('POST', base(a.organizationId), { token: a.owner.token, body: { domain: 'not a domain' } })).status).toBe(400);

    // No record yet, then a wrong one: 422; the API asked the operator's DNS server.
    const missing = await api.request('POST', `${base(a.organizationId)}/${id}/verify`, { token: a.owner.token });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe('DOMAIN_NOT_VERIFIED');
    expect(dns.questions).toContain(`_loom-verification.${domain}`);
    dns.setTxt(`_loom-verification.${domain}`, ['loom-verification=someone-elses-token', 'v=spf1 -all']);
    expect((await api.request('POST', `${base(a.organizationId)}/${id}/verify`, { token: a.owner.token })).body.error.code).toBe('DOMAIN_NOT_VERIFIED');

    // A member may not manage domains; another organization's ids are not found.
    const member = await memberOf(a, 'member');
    expect((await api.request('GET', base(a.organizationId), { token: member.token })).status).toBe(403);
    expect((await api.request('POST', `${base(b.organizationId)}/${id}/verify`, { token: b.owner.token })).status).toBe(404);
    expect((await api.request('DELETE', `${base(b.organizationId)}/${id}`, { token: b.owner.token })).status).toBe(404);

    dns.setTxt(`_loom-verification.${domain}`, [registered.body.verification.recordValue]);
    const verified = await api.request('POST', `${base(a.organizationId)}/${id}/verify`, { token: a.owner.token });
    expect(verified.status).toBe(200);
    expect(verified.body.status).toBe('verified');
    const list = await api.request('GET', base(a.organizationId), { token: a.owner.token });
    expect(list.body).toEqual({ data: [expect.objectContaining({ id, status: 'verified' })], nextCursor: null });

    // Organization B registers the same domain and publishes its own record: verified by A first, so refused.
    const byB = await api.request('POST', base(b.organizationId), { token: b.owner.token, body: { domain } });
    expect(byB.status).toBe(201);
    dns.setTxt(`_loom-verification.${domain}`, [registered.body.verification.recordValue, byB.body.verification.recordValue]);
    const claimed = await api.request('POST', `${base(b.organizationId)}/${byB.body.id}/verify`, { token: b.owner.token });
    expect(claimed.status).toBe(409);
    expect(claimed.body.error).toMatchObject({ code: 'DOMAIN_CLAIMED', message: `${domain} is already verified by another organization` });

    // A deletes it: released, B may prove it now.
    expect((await api.request('DELETE', `${base(a.organizationId)}/${id}`, { token: a.owner.token })).status).toBe(204);
    expect((await api.request('POST', `${base(b.organizationId)}/${byB.body.id}/verify`, { token: b.owner.token })).status).toBe(200);
  });

  test('a DNS server that does not answer is a 502, not a 500', async () => {
    const tenant = await createTestTenant(api);
    const domain = uniqueDomain();
    const registered = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/domains`, { token: tenant.owner.token, body: { domain } });
    dns.silence(`_loom-verification.${domain}`);
    const res = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/domains/${registered.body.id}/verify`, { token: tenant.owner.token });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('UPSTREAM_ERROR');
  });
});

// Issue 40, finding 11 (SSO items).
test('an issuer that does not resolve: authorize answers 502 UPSTREAM_ERROR, not 500', async () => {
  const tenant = await ssoTenant({ issuer: `http://sso-${short()}.invalid` });
  const res = await api.request('GET', `/api/auth/sso/${tenant.slug}/authorize`);
  expect(res.status).toBe(502);
  expect(res.body.error.code).toBe('UPSTREAM_ERROR');
  expect(res.body.error.message).toMatch(/^the identity provider cannot be reached: cannot resolve sso-[0-9a-f]{8}\.invalid/);
});

test('an issuer the outbound policy refuses is refused when the settings are saved, naming the field', async () => {
  const tenant = await createTestTenant(api);
  await api.request('PUT', '/api/v1/secrets/SSO_CLIENT_SECRET', { token: tenant.owner.token, body: { value: CLIENT_SECRET } });
  for (const refused of ['http://169.254.169.254/oidc', 'http://10.1.2.3', `http://127.0.0.1:${api.config.http.port}`]) {
    const res = await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, {
      token: tenant.owner.token,
      body: { integration: { sso: { enabled: true, protocol: 'oidc', oidc: { issuer: refused, clientId: CLIENT_ID, clientSecretName: 'SSO_CLIENT_SECRET' } } } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('UNPROCESSABLE');
    expect(res.body.error.message).toMatch(new RegExp(`^integration\\.sso\\.oidc\\.issuer ${refused.replace(/[.?*+^$[\]\\(){}|-]/g, '\\$&')} can never be reached: `));
    expect(res.body.error.details).toEqual([{ path: 'body.integration.sso.oidc.issuer', problem: expect.any(String) }]);
  }
  const settings = await api.deps.db('organizations').where({ id: tenant.organizationId }).first('settings');
  expect(settings.settings.integration?.sso ?? null).toBeNull();
});

test('with two-factor sign-in on, the SSO sign-in asks for the second step, and the session it opens keeps the scope', async () => {
  const tenant = await ssoTenant({ jitProvisioning: false });
  const user = await memberOf(tenant, 'member', `gina-${short()}@${tenant.domain}`);
  const other = await createTestTenant(api);
  await api.deps.db('memberships').insert({ organization_id: other.organizationId, user_id: user.userId, role: 'member' });
  await link(tenant.slug, user, user.email);
  const started = await api.request('POST', '/api/auth/2fa/enrolment', { token: user.token });
  expect(started.status).toBe(201);
  const confirmed = await api.request('POST', '/api/auth/2fa/enrolment/confirm', {
    token: user.token,
    body: { code: new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate() },
  });
  expect(confirmed.status).toBe(200);

  const first = await callback((await browserSignIn(tenant.slug, user.email)).callbackQuery);
  expect(first.status).toBe(200);
  expect(first.body.tokens).toBeUndefined();
  // A recovery code: the authenticator's code of this time step was spent by the enrolment.
  const second = await api.request('POST', '/api/auth/login/2fa', {
    body: { challengeToken: first.body.challenge.challengeToken, code: confirmed.body.recoveryCodes[0] },
  });
  expect(second.status).toBe(200);
  const token = second.body.tokens.accessToken as string;
  const switched = await api.request('POST', '/api/auth/switch-organization', { token, body: { organizationID: other.organizationId } });
  expect(switched.status).toBe(403);
  expect(switched.body.error.code).toBe('SSO_SESSION_SCOPED');
  expect((await api.request('GET', `/api/v1/organizations/${other.organizationId}/members`, { token })).status).toBe(404);
});

test("a session opened by SSO cannot change the second factor of an account that has a password; a passwordless SSO account can", async () => {
  const tenant = await ssoTenant({ jitProvisioning: true, verifiedDomain: true });
  const withPassword = await memberOf(tenant, 'member', `hal-${short()}@${tenant.domain}`);
  await api.deps.db('users').where({ id: withPassword.userId }).update({ password_hash: '$2b$10$notarealhashbutpresent.............................' });
  await link(tenant.slug, withPassword, withPassword.email);
  const scoped = await callback((await browserSignIn(tenant.slug, withPassword.email)).callbackQuery);
  expect(scoped.status).toBe(200);
  const refused = await api.request('POST', '/api/auth/2fa/enrolment', { token: scoped.body.tokens.accessToken });
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('SSO_SESSION_SCOPED');
  expect(await api.deps.db('user_two_factor').where({ user_id: withPassword.userId }).first()).toBeUndefined();

  const created = await callback((await browserSignIn(tenant.slug, `ivy-${short()}@${tenant.domain}`)).callbackQuery);
  expect(created.status).toBe(200);
  expect((await api.request('POST', '/api/auth/2fa/enrolment', { token: created.body.tokens.accessToken })).status).toBe(201);
});

describe('a sign-in the web console starts (client=console)', () => {
  /** Follows the flow from authorize?client=console to the callback's answer, unfollowed. */
  async function consoleFlow(slug: string, email: string): Promise<Response> {
    const start = await fetch(`${api.baseUrl}/api/auth/sso/${slug}/authorize?client=console`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const { callbackQuery } = await browserFlow(new URL(start.headers.get('location')!), email);
    return fetch(`${api.baseUrl}/api/auth/sso/callback${callbackQuery}`, { redirect: 'manual' });
  }

  function setCookies(res: Response): Map<string, string> {
    const found = new Map<string, string>();
    for (const c of res.headers.getSetCookie()) found.set(c.slice(0, c.indexOf('=')), c);
    return found;
  }

  const valueOf = (cookie: string | undefined): string => cookie!.slice(cookie!.indexOf('=') + 1).split(';')[0]!;

  test('signed in: back to /console with the browser-mode cookies and no token in the address or body', async () => {
    const tenant = await ssoTenant({ verifiedDomain: true });
    const res = await consoleFlow(tenant.slug, `olga-${short()}@${tenant.domain}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console');
    expect(await res.text()).not.toMatch(/eyJ|token/i);
    const cookies = setCookies(res);
    expect(cookies.get('loom_refresh')).toMatch(/; Path=\/api\/auth; .*HttpOnly; Secure; SameSite=Strict/);
    expect(cookies.get('loom_csrf')).toMatch(/; Path=\/; /);

    // The console's first request: the refresh cookie with its CSRF token gives the access token.
    const renewed = await fetch(`${api.baseUrl}/api/auth/refresh`, {
      method: 'POST',
      headers: { cookie: `loom_refresh=${valueOf(cookies.get('loom_refresh'))}`, 'x-csrf-token': valueOf(cookies.get('loom_csrf')), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(renewed.status).toBe(200);
    const body = (await renewed.json()) as { accessToken: string; refreshToken?: string };
    expect(body.refreshToken).toBeUndefined();
    const me = await api.request('GET', '/api/auth/me', { token: body.accessToken });
    expect(me.body.organizationID).toBe(tenant.organizationId);
  });

  test('refused: back to the sign-in page with the reason, and no cookie', async () => {
    const tenant = await ssoTenant({ jitProvisioning: false });
    const res = await consoleFlow(tenant.slug, `nobody-${short()}@${tenant.domain}`);
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith('/console#/sign-in?sso_error=')).toBe(true);
    expect(decodeURIComponent(location.split('sso_error=')[1]!)).toMatch(/^[A-Z_]+: /);
    expect(setCookies(res).size).toBe(0);
  });

  test('two-factor on: to the second step, the challenge only in an HttpOnly cookie the 2FA route reads', async () => {
    const tenant = await ssoTenant({ jitProvisioning: false });
    const user = await memberOf(tenant, 'member', `hugo-${short()}@${tenant.domain}`);
    await link(tenant.slug, user, user.email);
    const started = await api.request('POST', '/api/auth/2fa/enrolment', { token: user.token });
    const confirmed = await api.request('POST', '/api/auth/2fa/enrolment/confirm', {
      token: user.token,
      body: { code: new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate() },
    });
    expect(confirmed.status).toBe(200);

    const res = await consoleFlow(tenant.slug, user.email);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console#/sign-in/two-factor');
    const cookies = setCookies(res);
    expect(cookies.has('loom_refresh')).toBe(false);
    const challenge = cookies.get('loom_sso_challenge');
    expect(challenge).toMatch(/; Path=\/api\/auth\/login\/2fa; Max-Age=\d+; HttpOnly; Secure; SameSite=Strict/);

    // Without the cookie and without a token in the body: refused.
    const bare = await api.request('POST', '/api/auth/login/2fa', { body: { code: confirmed.body.recoveryCodes[0] } });
    expect(bare.status).toBe(401);
    const second = await fetch(`${api.baseUrl}/api/auth/login/2fa`, {
      method: 'POST',
      headers: { cookie: `loom_sso_challenge=${valueOf(challenge)}`, 'content-type': 'application/json', 'x-refresh-token-transport': 'cookie' },
      body: JSON.stringify({ code: confirmed.body.recoveryCodes[0] }),
    });
    expect(second.status).toBe(200);
    const answer = (await second.json()) as { tokens: { accessToken: string; refreshTokenTransport: string } };
    expect(answer.tokens.refreshTokenTransport).toBe('cookie');
    // The challenge cookie is cleared, the session cookies set.
    const after = setCookies(second);
    expect(after.get('loom_sso_challenge')).toMatch(/Max-Age=0/);
    expect(after.has('loom_refresh')).toBe(true);
    expect((await api.request('GET', '/api/auth/me', { token: answer.tokens.accessToken })).body.organizationID).toBe(tenant.organizationId);
  });
});
