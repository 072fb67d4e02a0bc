import Router from '@koa/router';
import { createAccountPagesDomain } from './account-pages';
import { recordAudit } from '../domain/audit/record';
import Koa from 'koa';
import { createAuthDomain } from './auth';
import { createAuthChangeListener } from '../domain/auth/authChangeListener';
import { createContentDomain } from './content';
import { createDocsDomain } from './docs';
import type { AppDeps } from '../domain/deps';
import { buildOpenApiDocument } from './http/openapi';
import { mountRoutes, type Authenticator } from './http/mount';
import { createWriteGate } from './http/writeGate';
import { createMetricsDomain } from './metrics';
import type { RouteDef } from './http/route';
import { securityHeaders } from './http/securityHeaders';
import { auditForbidden } from './middleware/auditForbidden';
import { errorMiddleware } from './middleware/errors';
import { createIdempotencyStore } from './middleware/idempotency';
import { requestContext } from './middleware/requestContext';
import { createOrganizationsDomain } from './organizations';
import { createRunsDomain } from './runs';
import { createRunPictureDomain } from './runs-picture';
import { createSecretsDomain } from './secrets';
import { systemRoutes } from './system/routes';
import { createWorkflowsDomain } from './workflows';
import { createTriggersDomain } from './triggers';
import { createToolsDomain } from './tools';
import { createEventsDomain } from './events';

export interface App {
  koa: Koa;
  routes: RouteDef[];
  openApi(): Record<string, unknown>;
  /** The /metrics-only app to listen with on SERVICE_METRICS_PORT, or null when /metrics is on the public port. */
  metricsListener: Koa | null;
  /** Finishes in-memory work (API-call counts) and stops listening for access changes before the process exits. */
  shutdown(): Promise<void>;
}

/** Composes the domains into one Koa application. No I/O happens here. */
export function createApp(deps: AppDeps): App {
  // One listener per process keeps the session and access checks' memories current (authChangeListener.ts).
  const changes =
    deps.config.auth.sessionCacheTtlMs > 0 ? createAuthChangeListener(deps.db, (err, message) => deps.logger.warn({ err }, message)) : null;
  const auth = createAuthDomain(deps, changes);
  const organizations = createOrganizationsDomain(deps, changes);
  const triggers = createTriggersDomain(deps);
  const metrics = createMetricsDomain(deps);
  const workflows = createWorkflowsDomain(deps, triggers.workflowListeners);

  const authenticator: Authenticator = {
    authenticateUser: (ctx) => auth.authenticateUser(ctx),
    authenticateAny: async (ctx) => (await organizations.authenticateApiKey(ctx)) ?? auth.authenticateUser(ctx),
    resolveOrganization: (principal, organizationId, ctx) =>
      organizations.resolveOrganization(principal, organizationId, ctx),
  };

  let document: Record<string, unknown> | undefined;
  const openApi = (): Record<string, unknown> =>
    (document ??= buildOpenApiDocument(routes, { version: '0.1.0', serverUrl: deps.config.http.publicUrl }));

  const routes: RouteDef[] = [
    ...systemRoutes(deps, openApi),
    ...createDocsDomain().routes,
    ...createAccountPagesDomain(deps).routes,
    ...metrics.routes,
    ...auth.routes,
    ...organizations.routes,
    ...workflows.routes,
    ...createToolsDomain(deps).routes,
    ...triggers.routes,
    ...createEventsDomain(deps).routes,
    ...createRunsDomain(deps).routes,
    ...createRunPictureDomain(deps).routes,
    ...createContentDomain(deps).routes,
    ...createSecretsDomain(deps).routes,
  ];

  const koa = new Koa({ proxy: deps.config.http.trustProxy });
  const router = new Router();
  mountRoutes(router, routes, authenticator, deps.config.http.bodyLimitBytes, {
    idempotency: createIdempotencyStore(deps.db),
    audit: (entry) => recordAudit(deps.db, entry),
    writeGate: createWriteGate({
      concurrency: deps.config.http.writeConcurrency,
      queue: deps.config.http.writeQueue,
      queueTimeoutMs: deps.config.http.writeQueueTimeoutMs,
    }),
  });

  koa.use(securityHeaders());
  koa.use(requestContext(deps.logger, metrics.metrics.observeRequest));
  koa.use(errorMiddleware());
  koa.use(auditForbidden(deps.db, deps.logger));
  koa.use(router.routes());
  // Not thrown: the router then sets Allow, and errorMiddleware turns its bare 405/501 into the envelope with it.
  koa.use(router.allowedMethods());
  return {
    koa,
    routes,
    openApi,
    metricsListener: metrics.listener,
    shutdown: async () => {
      await Promise.all([organizations.flushUsage(), changes?.close(), workflows.close()]);
    },
  };
}
