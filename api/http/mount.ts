import type Router from '@koa/router';
import type { AuditInput } from '../../domain/audit/record';
import { isAuditedRoute, ROUTE_AUDIT, routeAuditEntry } from './routeAudit';
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError, forbidden } from '../../lib/errors';
import { can } from '../../lib/permissions';
import { zodIssueDetails } from '../../lib/zodIssues';
import { readBody } from './body';
import { literalFirst, literalPathGuard, shadowedLiteralPaths } from './shadowedPaths';
import { enrichRequestLog, requestIdOf } from './requestLog';
import type { IdempotencyStore } from '../middleware/idempotency';
import type { AuthContext, RouteDef } from './route';
import type { WriteGate } from './writeGate';
import type { Actor, OrganizationContext, Principal } from '../../domain/principals';

/**
 * Authentication is provided by the auth and organizations domains; the mount only asks these questions, so the
 * rules about tokens, sessions, API keys and memberships stay in one place each.
 */
export interface Authenticator {
  /** Bearer access token of a live session. Throws 401 AppErrors with the spec's messages. */
  authenticateUser(ctx: Context): Promise<Principal & { kind: 'user' }>;
  /** Bearer access token or organization API key. */
  authenticateAny(ctx: Context): Promise<Principal>;
  /**
   * The caller's role in an organization, or null when it is not a member (the route then answers 404, so ids of
   * other tenants are not confirmed to exist).
   */
  resolveOrganization(principal: Principal, organizationId: string, ctx: Context): Promise<OrganizationContext | null>;
}

export function toKoaPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

function parseOrThrow(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError('VALIDATION_ERROR', `invalid ${where}`, zodIssueDetails(result.error, where, schema));
  }
  return result.data;
}

function actorOf(principal: Principal, ctx: Context): Actor {
  return {
    type: principal.kind === 'user' ? 'user' : 'apiKey',
    id: principal.kind === 'user' ? principal.userId : principal.apiKeyId,
    ip: ctx.ip,
    userAgent: ctx.get('user-agent') || null,
    requestId: requestIdOf(ctx),
  };
}

/** The organization an `org` route acts for, with the caller's role, after the route's permission check. */
async function organizationOf(
  def: RouteDef,
  principal: Principal,
  params: unknown,
  ctx: Context,
  auth: Authenticator,
): Promise<OrganizationContext> {
  let organizationId: string | null;
  if (def.organizationFrom === 'path') {
    organizationId = (params as { id?: string }).id ?? null;
  } else {
    organizationId = principal.kind === 'apiKey' ? principal.organizationId : principal.activeOrganizationId;
    if (!organizationId) {
      throw new AppError(
        'NO_ACTIVE_ORGANIZATION',
        'no active organization: create one (POST /api/v1/organizations) or switch (POST /api/auth/switch-organization)',
      );
    }
  }
  const organization = organizationId ? await auth.resolveOrganization(principal, organizationId, ctx) : null;
  if (!organization) {
    // The active organization of a token can vanish (removed member, deleted organization): say so plainly.
    throw def.organizationFrom === 'path'
      ? new AppError('NOT_FOUND', 'organization not found')
      : new AppError('FORBIDDEN', 'not a member of the active organization');
  }
  if (def.permission && !can(organization.role, def.permission)) {
    throw forbidden(`role ${organization.role} may not ${def.permission}`);
  }
  ctx.state.organizationId = organization.organizationId;
  return organization;
}

/**
 * Authenticates the request as the route's `auth` mode demands and parses its path parameters. The order is the
 * answer order: 401 before a 400 for bad params, and those before the organization's 404/403 (which may need the
 * `{id}` parameter). Each branch builds exactly the AuthContext its mode promises the handler.
 */
async function authenticate(
  def: RouteDef,
  ctx: Context,
  auth: Authenticator,
): Promise<{ authContext: AuthContext; params: unknown }> {
  switch (def.auth) {
    case 'public': {
      ctx.state.principal = null;
      const params = parseOrThrow(def.params, ctx.params, 'params');
      return { authContext: { principal: null, organization: null, actor: null }, params };
    }
    case 'user': {
      const principal = await auth.authenticateUser(ctx);
      ctx.state.principal = principal;
      const params = parseOrThrow(def.params, ctx.params, 'params');
      return { authContext: { principal, organization: null, actor: actorOf(principal, ctx) }, params };
    }
    case 'org': {
      const principal = await auth.authenticateAny(ctx);
      ctx.state.principal = principal;
      const params = parseOrThrow(def.params, ctx.params, 'params');
      const organization = await organizationOf(def, principal, params, ctx, auth);
      return { authContext: { principal, organization, actor: actorOf(principal, ctx) }, params };
    }
  }
}

export interface MountOptions {
  /** Needed when a route is declared `idempotent`. */
  idempotency?: IdempotencyStore;
  /**
   * Writes audit entries (domain/audit/record.ts). Given, every changing organization route must be in the audit
   * table (api/http/routeAudit.ts) or mounting fails, and the table's `route` entries are recorded here.
   */
  audit?: (entry: AuditInput) => Promise<void>;
  /** Caps each tenant's concurrent writes (api/http/writeGate.ts); every authenticated write route goes through it. */
  writeGate?: WriteGate;
}

/** Whose share of the write gate a request uses: its organization, or on account routes its user; null: not gated. */
function writeTenant(def: RouteDef, authContext: AuthContext): string | null {
  if (def.method === 'get') return null;
  if (authContext.organization) return `organization:${authContext.organization.organizationId}`;
  if (authContext.principal?.kind === 'user') return `user:${authContext.principal.userId}`;
  return null;
}

export function mountRoutes(
  router: Router,
  routes: RouteDef[],
  auth: Authenticator,
  bodyLimitBytes: number,
  options: MountOptions = {},
): void {
  // Before the routes: a guard runs first on a literal path that a parameterised route also matches, and the
  // routes with fewer parameters are mounted first, so that path's own methods reach its handler whatever the order
  // of the declarations (the router runs the first layer that matches path and method).
  for (const [path, methods] of shadowedLiteralPaths(routes)) router.all(toKoaPath(path), literalPathGuard(methods));
  for (const def of literalFirst(routes)) {
    if (def.idempotent && (def.auth !== 'org' || !options.idempotency)) {
      throw new Error(`${def.operationId}: idempotent routes need auth 'org' and an idempotency store`);
    }
    if (options.audit && isAuditedRoute(def) && !ROUTE_AUDIT[def.operationId]) {
      throw new Error(`${def.operationId}: a changing organization route needs an entry in api/http/routeAudit.ts (ROUTE_AUDIT)`);
    }
    router[def.method](def.operationId, toKoaPath(def.path), async (ctx: Context) => {
      // The route's rate limits first: a body that validation refuses has been counted already.
      if (def.admit) await def.admit(ctx);
      const { authContext, params } = await authenticate(def, ctx, auth);
      enrichRequestLog(ctx, authContext.principal, authContext.organization);

      const query = parseOrThrow(def.query, ctx.query, 'query');
      let body: unknown = undefined;
      const formats = def.bodyFormats ?? ['json'];
      if (def.body && !formats.includes('raw')) {
        body = parseOrThrow(def.body, await readBody(ctx, formats, bodyLimitBytes), 'body');
      }

      const { organization, actor } = authContext;
      const execute = async () => {
        const result = await def.handler({ params, query, body, ctx, ...authContext });
        // Inside `execute`: an idempotent replay answers the stored response and records nothing again.
        const status = result.status ?? (result.body === undefined ? 204 : 200);
        if (options.audit && organization && actor && status >= 200 && status < 300) {
          const entry = routeAuditEntry(ROUTE_AUDIT[def.operationId], { organization, actor, params, body }, result.body);
          if (entry) await options.audit(entry);
        }
        return result;
      };
      const handle = () =>
        def.idempotent && organization && options.idempotency
          ? options.idempotency.run(ctx, organization.organizationId, body, execute)
          : execute();
      // The handler's database work, not `settle` (run-and-wait holds no connection while it waits).
      const tenant = options.writeGate ? writeTenant(def, authContext) : null;
      const handled = tenant && options.writeGate ? await options.writeGate.run(tenant, handle) : await handle();
      const result = def.settle ? await def.settle({ params, query, body, ctx, ...authContext }, handled) : handled;
      if (result.headers) ctx.set(result.headers);
      ctx.status = result.status ?? (result.body === undefined ? 204 : 200);
      if (result.body !== undefined) ctx.body = result.body;
    });
  }
}
