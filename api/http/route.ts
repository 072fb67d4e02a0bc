import type { Context } from 'koa';
import type { z } from 'zod';
import type { ErrorCode } from '../../lib/errors';
import type { Permission } from '../../lib/permissions';
import type { Actor, OrganizationContext, Principal, UserPrincipal } from '../../domain/principals';

/**
 * A route is declared once, with its zod schemas, and that one declaration is used three ways: to mount the Koa
 * handler, to validate the request, and to describe the endpoint in the OpenAPI document. A route that exists is
 * therefore always documented.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * - `public`: no authentication.
 * - `user`: a bearer access token of a live session (no organization needed).
 * - `org`: a bearer access token or an organization API key, resolved to one organization and a role, and the
 *   route's `permission` checked against the role. The organization is the `{id}` path parameter when
 *   `organizationFrom` is `path`, else the session's active organization (or the API key's).
 */
export type AuthMode = 'public' | 'user' | 'org';

/**
 * What the mount has established before a handler runs, per auth mode (api/http/mount.ts checks it at run time):
 * an `org` handler always has its organization and role, a `user` handler its user, a `public` one nobody.
 */
export interface AuthContexts {
  public: { principal: null; organization: null; actor: null };
  user: { principal: UserPrincipal; organization: null; actor: Actor };
  org: { principal: Principal; organization: OrganizationContext; actor: Actor };
}

/** The authentication of a request to a route of mode `A`; for `AuthMode` itself, any of the three. */
export type AuthContext<A extends AuthMode = AuthMode> = AuthContexts[A];

export type RouteInput<P, Q, B, A extends AuthMode = AuthMode> = {
  params: P;
  query: Q;
  body: B;
  ctx: Context;
} & AuthContext<A>;

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
}

export type BodyFormat = 'json' | 'yaml' | 'raw';

export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends AuthMode = AuthMode,
> {
  method: HttpMethod;
  /** OpenAPI style: `/api/v1/workflows/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  permission?: Permission;
  organizationFrom?: 'path' | 'active';
  params?: P;
  query?: Q;
  body?: B;
  /** Body formats accepted (default json). `raw` leaves the stream to the handler (uploads). */
  bodyFormats?: BodyFormat[];
  /** Documented request body for `raw` routes (e.g. multipart). */
  rawBodyDoc?: { contentType: string; schema: Record<string, unknown>; description?: string };
  responses: Record<number, ResponseSpec>;
  /**
   * Honour an `Idempotency-Key` header (api/middleware/idempotency.ts): a repeated request gets the first response.
   * Only for `auth: 'org'` routes (keys are per organization).
   */
  idempotent?: boolean;
  /** Error codes this route can answer with, beyond the ones every route of its auth mode has. */
  errors?: ErrorCode[];
  /**
   * Runs first, before authentication and before the body is read or validated: the per-client rate limits of public
   * routes (register, login, password reset, refresh...), so a request refused for its body counts like any other,
   * and a flood is refused before any of its parsing runs. Throws to refuse (429 RATE_LIMITED).
   */
  admit?: (ctx: Context) => Promise<void>;
  handler: (input: RouteInput<z.output<P>, z.output<Q>, z.output<B>, A>) => Promise<RouteResult>;
  /**
   * Runs after the handler and outside the idempotent part: on the handler's answer and on a replayed one alike, and
   * may replace it; its answer is never stored. Run and wait (api/runs/routes.ts): the stored answer is the created
   * run, and each request, first or repeated with the same Idempotency-Key, then waits for that run as it asks.
   */
  settle?: (input: RouteInput<z.output<P>, z.output<Q>, z.output<B>, A>, result: RouteResult) => Promise<RouteResult>;
}

/**
 * Identity function that gives the handler typed params, query and body, and the principal, organization and actor
 * its `auth` mode guarantees. The result forgets those types so routes of every kind fit in one list; the mount
 * passes each handler the input its own `auth` promised.
 */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, A extends AuthMode>(
  def: RouteDef<P, Q, B, A>,
): RouteDef {
  return def as unknown as RouteDef;
}
