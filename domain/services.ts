import { createAccessTokenVerifier } from './auth/accessTokens';
import { createAuthChangeListener, type AuthChangeListener } from './auth/authChangeListener';
import { createCredentialVerifier } from './auth/credentials';
import { createIdentitiesService } from './auth/identities';
import { createPasswordHasher } from './auth/passwords';
import { createAuthService } from './auth/service';
import { createSessionService } from './auth/sessions';
import { createSsoService } from './auth/sso';
import { createTokenService } from './auth/tokens';
import { createTwoFactorService } from './auth/twoFactor';
import { createBillingProvider } from './billing/providers';
import { createBillingService } from './billing/service';
import { createEmbeddingModels } from './content/embeddingModels';
import { createContentExtractor } from './content/extract';
import { createContentSearch } from './content/search';
import { createSecurityNotices } from './auth/securityNotices';
import { pendingInvitationAddress } from './organizations/invitationLookup';
import { createReembeddings } from './content/reembedding';
import { createTransfers } from './organizations/transfers';
import { createContentService } from './content/service';
import type { AppDeps } from './deps';
import { createNodeApprovals } from './approvals/service';
import { createDispatcherEnsurer } from './events/dispatcher';
import { createEventsService } from './events/service';
import { createQuotaAlerts } from './organizations/quotaAlerts';
import type { OrgServiceDeps } from './organizations/serviceDeps';
import { createOrganizationsServices } from './organizations/services';
import { createApiCallMeter } from './organizations/usageMeter';
import { createRateLimiter } from './ratelimit/limiter';
import { createRunPictureService } from './runs-picture/service';
import { createRunAdmission, unlimitedAdmission } from './runs/admission';
import { createRunExecutions } from './runs/executions';
import { createRunsService } from './runs/service';
import { createRunWaiter } from './runs/wait';
import { createSecretsService } from './secrets/service';
import { existingSecretNames } from './secrets/queries';
import { createToolsService } from './tools/service';
import { createApprovals } from './triggers/approvals';
import { createWorkflowListeners } from './triggers/listeners';
import { createTriggersService } from './triggers/service';
import { createWebhookRuns } from './triggers/webhookRuns';
import { createWorkflowsService, emptyListeners } from './workflows/service';
import { createValidationEnv } from './workflows/validationEnv';
import { createOffLoopValidator } from './workflows/validationThread';
import { createVectorStore } from '../lib/vectors';

export interface ServiceOptions {
  /**
   * Whether manual starts (start, retry, dead-letter replay) pass run admission (domain/runs/admission.ts): the
   * API's do; the operator CLI's do not.
   */
  admitRunStarts: boolean;
}

/** Memoizes a builder: the service is built on first use, once. */
function once<T>(build: () => T): { (): T; built(): boolean } {
  let value: { of: T } | undefined;
  const get = (): T => (value ??= { of: build() }).of;
  return Object.assign(get, { built: () => value !== undefined });
}

/**
 * The composition root of the domain layer: every service a process uses, each built once from the process's
 * shared parts (domain/runtime.ts), on first use, so a CLI command builds only what it touches. The API (api/app.ts),
 * the admin CLI and the test stack get their services here; nothing else calls the services' factories.
 */
export function createServices(deps: AppDeps, options: ServiceOptions) {
  const { db, config, logger } = deps;
  const warn = (err: unknown, message: string): void => deps.logger.warn({ err }, message);

  const limiter = once(() => createRateLimiter(db));
  const executions = once(() => createRunExecutions(deps.temporal, config.temporal));
  const runWaiter = once(() => createRunWaiter(db, executions(), warn));
  const ensureDispatcher = once(() => createDispatcherEnsurer(deps.temporal, config.temporal.taskQueue));
  const runs = once(() =>
    createRunsService(deps, {
      executions: executions(),
      waiter: runWaiter(),
      admission: options.admitRunStarts ? createRunAdmission(db, limiter(), config.runAdmission) : unlimitedAdmission(db),
    }),
  );

  const workflowListeners = once(() => {
    const listeners = emptyListeners();
    const schedules = createWorkflowListeners(deps, ensureDispatcher());
    listeners.onStatusChange.push(...schedules.onStatusChange);
    listeners.onVersionCreated.push(...schedules.onVersionCreated);
    listeners.onDeleted.push(...schedules.onDeleted);
    return listeners;
  });
  const validator = once(() => createOffLoopValidator());
  const workflows = once(() =>
    createWorkflowsService({
      db,
      logger,
      validationEnv: createValidationEnv(deps.tools),
      refreshTools: () => deps.tools.refresh(),
      offLoop: { validator: validator(), tools: () => deps.tools.list() },
      listeners: workflowListeners(),
      secretNames: (organizationId, names) => existingSecretNames(db, organizationId, names),
    }),
  );

  // One listener per process keeps the session and access checks' memories current (auth/authChangeListener.ts).
  const authChanges = once((): AuthChangeListener | null => (config.auth.sessionCacheTtlMs > 0 ? createAuthChangeListener(db, warn) : null));
  const tokens = once(() => createTokenService(config.jwt));
  const passwords = once(() => createPasswordHasher(config.auth.bcryptCost));
  const sessions = once(() => createSessionService({ db, tokens: tokens(), auth: config.auth }));
  const notices = once(() => createSecurityNotices({ db, box: deps.box, mailer: deps.mailer, logger }));
  const twoFactor = once(() =>
    createTwoFactorService({ db, config, box: deps.box, limiter: limiter(), passwords: passwords(), sessions: sessions(), notices: notices() }),
  );

  const meter = once(() => createApiCallMeter(db, logger, { flushIntervalMs: config.organizations.usageFlushIntervalMs }));
  const organizationDeps = once((): OrgServiceDeps => ({ ...deps, billing: createBillingProvider(config, db), meter: meter() }));
  const vectors = once(() => createVectorStore(config.content, config.minio));

  const runPicture = once(() => createRunPictureService(db, runs()));
  const approvals = once(() => createApprovals(deps, runs()));
  const nodeApprovals = once(() => createNodeApprovals(deps));
  const webhookRuns = once(() => createWebhookRuns(deps, limiter(), executions()));
  const triggers = once(() => createTriggersService(deps, deps.box));
  const events = once(() => createEventsService(deps, ensureDispatcher(), limiter()));
  const tools = once(() => createToolsService(deps, deps.tools, limiter()));
  const secrets = once(() => createSecretsService(deps));
  const content = once(() => ({
    service: createContentService(deps),
    search: createContentSearch(deps, vectors()),
    extractor: createContentExtractor(deps),
    embeddingModels: createEmbeddingModels(deps, vectors()),
    reembeddings: createReembeddings(deps),
  }));
  const auth = once(() => ({
    tokens: tokens(),
    twoFactor: twoFactor(),
    service: createAuthService({
      db,
      config,
      logger,
      mailer: deps.mailer,
      tokens: tokens(),
      sessions: sessions(),
      passwords: passwords(),
      limiter: limiter(),
      twoFactor: twoFactor(),
      notices: notices(),
      invitationAddress: (token) => pendingInvitationAddress(db, token),
    }),
    sso: createSsoService({ db, config, box: deps.box, sessions: sessions(), twoFactor: twoFactor(), notices: notices() }),
    identities: createIdentitiesService(db),
    verifyCredentials: createCredentialVerifier(db, passwords()),
    verifyAccessToken: createAccessTokenVerifier(db, tokens(), {
      idleTimeoutMs: config.auth.sessionIdleTimeoutMs,
      cacheTtlMs: config.auth.sessionCacheTtlMs,
      changes: authChanges(),
    }),
  }));
  const organizations = once(() => ({
    ...createOrganizationsServices(organizationDeps()),
    billing: createBillingService(organizationDeps()),
    quotaAlerts: createQuotaAlerts(organizationDeps()),
    transfers: createTransfers(deps),
    meter: meter(),
  }));

  return {
    deps,
    get limiter() { return limiter(); },
    get runs() { return runs(); },
    get runWaiter() { return runWaiter(); },
    get runPicture() { return runPicture(); },
    get approvals() { return approvals(); },
    get nodeApprovals() { return nodeApprovals(); },
    get webhookRuns() { return webhookRuns(); },
    get triggers() { return triggers(); },
    get events() { return events(); },
    get workflowListeners() { return workflowListeners(); },
    get workflows() { return workflows(); },
    get tools() { return tools(); },
    get secrets() { return secrets(); },
    get content() { return content(); },
    get auth() { return auth(); },
    get authChanges() { return authChanges(); },
    get organizations() { return organizations(); },
    /** Ends what the built services hold open: the validation thread, the usage counts in memory, the change listener. */
    async close(): Promise<void> {
      await Promise.all([
        meter.built() ? meter().flush() : undefined,
        validator.built() ? validator().close() : undefined,
        authChanges.built() ? authChanges()?.close() : undefined,
      ]);
    },
  };
}

export type Services = ReturnType<typeof createServices>;
