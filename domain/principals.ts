import type { Role } from '../lib/permissions';

/**
 * Who is calling and on whose behalf: the authenticated principal, the organization and role a request resolved
 * to, and the actor recorded in audit logs. The HTTP layer builds them (api/auth, api/organizations/access.ts);
 * services take them as plain values.
 */

export interface UserPrincipal {
  kind: 'user';
  userId: string;
  email: string;
  sessionId: string;
  /** When the session was last used before this request (epoch ms; recorded at most once per touch interval). */
  sessionLastUsedMs: number;
  activeOrganizationId: string | null;
  /**
   * The organization whose single sign-on opened the session: the session acts in it only (other organizations
   * answer 404, switching is refused). Null or absent: a session opened with the password, which acts in any.
   */
  ssoOrganizationId?: string | null;
}

export interface ApiKeyPrincipal {
  kind: 'apiKey';
  apiKeyId: string;
  organizationId: string;
  role: Role;
}

export type Principal = UserPrincipal | ApiKeyPrincipal;

export interface OrganizationContext {
  organizationId: string;
  role: Role;
}

/** Who acted, for audit logs and ownership checks. */
export interface Actor {
  type: 'user' | 'apiKey';
  id: string;
  ip: string;
  userAgent: string | null;
  /** The request's X-Request-Id (api/middleware/requestContext.ts), carried into what it starts (a run's memo). */
  requestId?: string;
}

/**
 * Where a request came from, as services need it (rate-limit keys, session rows, audit entries): the HTTP layer
 * reads it off the request (api/http/requestMeta.ts) so that services never see Koa's context.
 */
export interface RequestMeta {
  /** The client address (the socket's, or X-Forwarded-For's when proxies are trusted). */
  ip: string;
  userAgent: string | null;
}
