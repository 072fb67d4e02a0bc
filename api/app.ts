import Router from '@koa/router';
import { createAccountPagesDomain } from './account-pages';
import { recordAudit } from '../domain/audit/record';
import Koa from 'koa';
import { createAuthDomain } from './auth';
import { createConsoleDomain } from './console';
import { createContentDomain } from './content';
import { createDocsDomain } from './docs';
import type { AppDeps } from '../domain/deps';
import { createServices, type Services } from '../domain/services';
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
import { createApprovalsDomain } from './approvals';

export interface App {
  koa: Koa;
  routes: RouteDef[];
  openApi(): Record<string, unknown>;
  /** The /metrics-only app to listen with on SERVICE_METRICS_PORT, or null when /metrics is on the public port. */
  metricsListener: Koa | null;
  /** Finishes in-memory work (API-call counts) and stops listening for access changes before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * Composes the domains into one Koa application over the process's services (domain/services.ts), built once; the
 * app's shutdown closes them. No I/O happens here.
 */
export function createApp(deps: AppDeps, services: Services = createServices(deps, { admitRunStarts: true })): App {
  const auth = createAuthDomain(services);
  const organizations = createOrganizationsDomain(services);
  const metrics = createMetricsDomain(deps);

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
    ...createConsoleDomain().routes,
    ...createAccountPagesDomain(deps).routes,
    ...metrics.routes,
    ...auth.routes,
    ...organizations.routes,
    ...createWorkflowsDomain(services).routes,
    ...createToolsDomain(services).routes,
    ...createTriggersDomain(services).routes,
    ...createEventsDomain(services).routes,
    ...createRunsDomain(services).routes,
    ...createApprovalsDomain(services).routes,
    ...createRunPictureDomain(services).routes,
    ...createContentDomain(services).routes,
    ...createSecretsDomain(services).routes,
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
    shutdown: () => services.close(),
  };
}
