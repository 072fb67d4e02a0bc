import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { guardedRequest, HttpClientError } from '../../lib/net/httpClient';
import { outboundGuards } from '../../lib/net/outbound';
import { SsrfRefusedError } from '../../lib/net/ssrfGuard';
import type { SecretBox } from '../../lib/secrets';
import { recordAudit } from '../audit/record';
import type { StoredSettings } from '../organizations/settingsModel';
import { findOrganizationByIdOrSlug, type OrganizationByRef } from '../organizations/settingsReader';
import type { RequestMeta, UserPrincipal } from '../principals';
import { readSecretValues } from '../secrets/queries';
import type * as q from './queries';
import { ssoSessionScoped, type SessionService, type TokenPair } from './sessions';
import type { SecurityNotices } from './securityNotices';
import { createSsoIdentities, type VerifiedIdentity } from './ssoIdentity';
import * as sq from './ssoQueries';
import { hashToken } from './tokens';
import type { SignInChallenge, TwoFactorService } from './twoFactor';
import { trimEndChars } from '../../lib/trimChars';

/**
 * Single sign-on with OpenID Connect per organization (docs/auth.md#single-sign-on-openid-connect): the
 * authorization-code flow with PKCE (S256), `state` (stored hashed, single use, 10 minutes) and `nonce` (checked in
 * the ID token). The issuer URL is tenant-controlled: discovery, JWKS and the token request all go through the
 * outbound policy (lib/net, the `tools` guard: private addresses only when TOOLS_HTTP_ALLOWED_HOSTS names them), with
 * no redirects followed. ID tokens are verified with `jose` against the provider's JWKS: signature, issuer (the
 * configured one, which the discovery document must also declare), audience (the client id), expiry and nonce.
 * The e-mail must be verified by the provider and, when the organization lists domains, be in one of them.
 * Who signs in is decided by the identity (issuer, subject), never by the e-mail alone (ssoIdentity.ts): a linked
 * identity signs in its user; an e-mail of an existing account is refused until its owner links the identity from
 * a signed-in session (`startLink`: the same flow, the state bound to that user); just-in-time provisioning (opt-in)
 * creates an account only in a domain the organization has verified. The session opened is scoped to the
 * organization (sessions.ts). A user with two-factor sign-in on gets the usual challenge, which keeps the scope.
 */

const STATE_TTL_MS = 10 * 60_000;
const HTTP_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 512 * 1024;

export interface SsoDeps {
  db: Db;
  config: Config;
  box: SecretBox;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  notices: SecurityNotices;
}

type OidcConfig = NonNullable<NonNullable<StoredSettings['integration']['sso']>['oidc']>;

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

const b64url = (buf: Buffer): string => buf.toString('base64url');
const ssoFailed = (message: string): AppError => new AppError('SSO_FAILED', message);
const trimSlash = (url: string): string => trimEndChars(url, '/');

export type SsoCallbackResult =
  | { user: q.UserRow; tokens: TokenPair }
  | { user: q.UserRow; challenge: SignInChallenge }
  | { user: q.UserRow; linked: { issuer: string; organizationID: string } };

type CallbackInput = { state: string; code?: string | undefined; error?: string | undefined; error_description?: string | undefined };

export type SsoService = ReturnType<typeof createSsoService>;

export function createSsoService(deps: SsoDeps) {
  const { db, config, box, sessions, twoFactor, notices } = deps;
  const guard = outboundGuards(config).tools;
  const redirectUri = `${trimSlash(config.http.publicUrl)}/api/auth/sso/callback`;
  const identities = createSsoIdentities(db);

  /** One request to the provider, through the outbound policy; JSON answer. */
  async function providerJson(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; json: unknown }> {
    let res;
    try {
      res = await guardedRequest(guard, {
        url,
        method: init.method ?? 'GET',
        headers: { accept: 'application/json', ...(init.headers ?? {}) },
        ...(init.body !== undefined ? { body: init.body } : {}),
        timeoutMs: HTTP_TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        maxRedirects: 0,
      });
    } catch (err) {
      if (err instanceof SsrfRefusedError) {
        throw new AppError('UNPROCESSABLE', `the SSO issuer is refused by the outbound policy: ${err.message}`, [
          { path: 'integration.sso.oidc.issuer', problem: err.message },
        ]);
      }
      if (err instanceof HttpClientError) throw new AppError('UPSTREAM_ERROR', `the identity provider did not answer: ${err.message}`);
      // The guard's resolution failed (a name that does not resolve, or no DNS answer): the provider is unreachable.
      if ((err as { code?: unknown }).code === 'DNS_FAILED') {
        throw new AppError('UPSTREAM_ERROR', `the identity provider cannot be reached: ${(err as Error).message}`);
      }
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new AppError('UPSTREAM_ERROR', `the identity provider answered ${res.status} without JSON at ${url}`);
    }
    return { status: res.status, json };
  }

  async function discover(oidc: OidcConfig): Promise<Discovery> {
    const issuer = trimSlash(oidc.issuer);
    const { status, json } = await providerJson(`${issuer}/.well-known/openid-configuration`);
    const doc = json as Partial<Discovery> | null;
    if (status !== 200 || !doc || typeof doc !== 'object') {
      throw new AppError('UPSTREAM_ERROR', `no OpenID Connect discovery document at ${issuer} (status ${status})`);
    }
    if (typeof doc.issuer !== 'string' || trimSlash(doc.issuer) !== issuer) {
      throw new AppError(
        'UNPROCESSABLE',
        `the identity provider at ${issuer} declares the issuer ${String(doc.issuer)}; integration.sso.oidc.issuer must be exactly its issuer`,
        [{ path: 'integration.sso.oidc.issuer', problem: 'does not match the discovery document' }],
      );
    }
    for (const key of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
      if (typeof doc[key] !== 'string') throw new AppError('UPSTREAM_ERROR', `the discovery document of ${issuer} has no ${key}`);
    }
    return doc as Discovery;
  }

  async function ssoConfigOf(org: OrganizationByRef | null): Promise<{ org: OrganizationByRef; oidc: OidcConfig }> {
    const sso = org && org.status === 'active' ? org.settings.integration.sso : null;
    if (!org || !sso || !sso.enabled || sso.protocol !== 'oidc' || !sso.oidc) {
      throw new AppError('NOT_FOUND', 'this organization has no OpenID Connect sign-in enabled');
    }
    return { org, oidc: sso.oidc };
  }

  async function clientSecretOf(organizationId: string, oidc: OidcConfig): Promise<string> {
    if (oidc.clientSecretName) {
      const value = (await readSecretValues({ db, box: deps.box }, organizationId, [oidc.clientSecretName])).get(oidc.clientSecretName);
      if (value === undefined) {
        throw new AppError('UNPROCESSABLE', `the SSO client secret ${oidc.clientSecretName} is not among the organization's secrets`);
      }
      return value;
    }
    if (oidc.clientSecret) return box.open(oidc.clientSecret);
    throw new AppError('UNPROCESSABLE', 'the SSO configuration has no client secret');
  }

  async function signIn(
    meta: RequestMeta,
    user: q.UserRow,
    organizationId: string,
  ): Promise<{ user: q.UserRow; tokens: TokenPair } | { user: q.UserRow; challenge: SignInChallenge }> {
    if (await twoFactor.isEnabled(user.id)) return { user, challenge: await twoFactor.challenge(user.id, organizationId, 'sso') };
    const mails: string[] = [];
    const { tokens } = await sessions.create(
      user,
      { ip: meta.ip || null, userAgent: meta.userAgent },
      organizationId,
      async (trx, sessionId) => {
        await recordAudit(trx, {
          organizationId: null,
          userId: user.id,
          actor: { type: 'user', id: user.id, ip: meta.ip, userAgent: meta.userAgent },
          action: 'auth.login_succeeded',
          target: { type: 'session', id: sessionId },
          after: { method: 'sso', organizationId },
        });
        mails.push(...(await notices.signedIn(trx, user, meta, { sessionId, method: 'single sign-on' })));
      },
      { ssoOrganizationId: organizationId },
    );
    notices.deliver(mails);
    return { user, tokens };
  }

  /** The authorization URL of a new flow; `linkUserId` makes it a link of that user's account instead of a sign-in. */
  async function start(slug: string, linkUserId: string | null, client: sq.SsoClient | null): Promise<{ authorizationUrl: string; expiresIn: number }> {
    const { org, oidc } = await ssoConfigOf(await findOrganizationByIdOrSlug(db, { slug }));
    if (linkUserId && !(await sq.findMembershipRole(db, org.id, linkUserId))) {
      throw new AppError('FORBIDDEN', "only members link an identity of the organization's provider");
    }
    const discovery = await discover(oidc);
    const state = b64url(randomBytes(32));
    const nonce = b64url(randomBytes(32));
    const codeVerifier = b64url(randomBytes(32));
    await sq.insertSsoState(db, {
      stateHash: hashToken(state),
      organizationId: org.id,
      nonce,
      codeVerifier,
      redirectUri,
      expiresAt: new Date(Date.now() + STATE_TTL_MS),
      linkUserId,
      client,
    });
    const url = new URL(discovery.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', oidc.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', 'openid email profile');
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', nonce);
    url.searchParams.set('code_challenge', b64url(createHash('sha256').update(codeVerifier).digest()));
    url.searchParams.set('code_challenge_method', 'S256');
    return { authorizationUrl: url.toString(), expiresIn: STATE_TTL_MS / 1000 };
  }

  return {
    redirectUri,

    /**
     * Starts a sign-in: answers the provider's authorization URL to send the browser to. `client: 'console'`: the
     * callback hands the session to the web console (browser-mode cookies, then back to /console).
     */
    authorize: (slug: string, client: sq.SsoClient | null = null) => start(slug, null, client),

    /**
     * Starts linking the provider's identity to the signed-in user (a member of the organization): the callback
     * links instead of signing in. Not from a session opened by SSO: what one organization's provider vouches for
     * must not add ways into the account elsewhere.
     */
    async startLink(principal: UserPrincipal, slug: string): Promise<{ authorizationUrl: string; expiresIn: number }> {
      if (principal.ssoOrganizationId) throw ssoSessionScoped('link an identity');
      return start(slug, principal.userId, null);
    },

    /**
     * The provider's redirect back: state spent, code exchanged, ID token verified, then the sign-in or the link.
     * A flow the console started answers its refusals too (`error`), so that the console can show them; others throw.
     */
    async callback(meta: RequestMeta, input: CallbackInput): Promise<{ client: sq.SsoClient | null } & ({ outcome: SsoCallbackResult } | { error: AppError })> {
      const saved = await sq.consumeSsoState(db, hashToken(input.state));
      if (!saved) throw new AppError('INVALID_TOKEN', 'unknown, expired or already used SSO state; start the sign-in again');
      try {
        return { client: saved.client, outcome: await complete(meta, saved, input) };
      } catch (err) {
        if (saved.client && err instanceof AppError) return { client: saved.client, error: err };
        throw err;
      }
    },
  };

  async function complete(meta: RequestMeta, saved: sq.SsoStateRow, input: CallbackInput): Promise<SsoCallbackResult> {
      if (input.error || !input.code) {
        throw ssoFailed(`the identity provider refused the sign-in: ${input.error ?? 'no code'}${input.error_description ? ` (${input.error_description})` : ''}`);
      }
      const { org, oidc } = await ssoConfigOf(await findOrganizationByIdOrSlug(db, { id: saved.organization_id }));
      const discovery = await discover(oidc);
      const secret = await clientSecretOf(org.id, oidc);
      const basic = Buffer.from(`${encodeURIComponent(oidc.clientId)}:${encodeURIComponent(secret)}`).toString('base64');
      const token = await providerJson(discovery.token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: input.code,
          redirect_uri: saved.redirect_uri,
          code_verifier: saved.code_verifier,
        }).toString(),
      });
      const tokenBody = token.json as { id_token?: unknown; access_token?: unknown; error?: unknown; error_description?: unknown } | null;
      if (token.status !== 200 || typeof tokenBody?.id_token !== 'string') {
        throw ssoFailed(`the identity provider refused the code: ${String(tokenBody?.error ?? token.status)}${tokenBody?.error_description ? ` (${String(tokenBody.error_description)})` : ''}`);
      }
      const jwks = await providerJson(discovery.jwks_uri);
      const keys = jwks.json as JSONWebKeySet | null;
      if (jwks.status !== 200 || !keys || !Array.isArray(keys.keys)) throw new AppError('UPSTREAM_ERROR', 'the identity provider has no usable JWKS');
      let claims: Record<string, unknown>;
      try {
        ({ payload: claims } = await jwtVerify(tokenBody.id_token, createLocalJWKSet(keys), {
          issuer: discovery.issuer,
          audience: oidc.clientId,
        }));
      } catch (err) {
        throw ssoFailed(`the ID token does not verify: ${(err as Error).message}`);
      }
      if (claims.nonce !== saved.nonce) throw ssoFailed('the ID token does not carry the nonce of this sign-in');
      // Providers that keep scope claims out of the ID token (OIDC Core 5.4) answer them at the userinfo endpoint,
      // for the same subject.
      if (typeof claims.email !== 'string' && discovery.userinfo_endpoint && typeof tokenBody.access_token === 'string') {
        const info = await providerJson(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${tokenBody.access_token}` } });
        const extra = info.json as Record<string, unknown> | null;
        if (info.status === 200 && extra && extra.sub === claims.sub) {
          claims = { ...claims, email: extra.email, email_verified: extra.email_verified, name: extra.name ?? claims.name };
        }
      }
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!email || claims.email_verified !== true) throw ssoFailed('the identity provider did not give a verified e-mail address');
      const domain = email.slice(email.lastIndexOf('@') + 1);
      const allowed = oidc.allowedEmailDomains ?? [];
      if (allowed.length > 0 && !allowed.includes(domain)) {
        throw new AppError('FORBIDDEN', `e-mail addresses of ${domain} may not sign in to this organization with SSO`);
      }

      if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 255) {
        throw ssoFailed('the ID token has no usable subject (sub)');
      }
      const identity: VerifiedIdentity = {
        organizationId: org.id,
        slug: org.slug,
        issuer: trimSlash(discovery.issuer),
        subject: claims.sub,
        email,
        name: typeof claims.name === 'string' ? claims.name.slice(0, 255) : null,
        jitProvisioning: oidc.jitProvisioning === true,
        defaultRole: oidc.defaultRole ?? 'member',
      };
      if (saved.link_user_id) {
        const user = await identities.link(meta, identity, saved.link_user_id);
        return { user, linked: { issuer: identity.issuer, organizationID: org.id } };
      }
      return signIn(meta, await identities.signInUser(meta, identity), org.id);
  }
}
