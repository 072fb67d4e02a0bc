import type { Context } from 'koa';
import type { Db } from '../../db/knex';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { PlanQuotas } from '../../lib/config';
import type { ApiKeyPrincipal, OrganizationContext, Principal } from '../../domain/principals';
import { recordAudit } from '../../domain/audit/record';
import { createAuditThrottle } from '../../domain/audit/throttle';
import { IDLE_BEYOND_POLICY_MESSAGE, idleBeyondPolicy } from '../../domain/auth/idleLimit';
import { deleteSession } from '../../domain/auth/queries';
import { hashToken, looksLikeApiKey } from '../../domain/organizations/apiKeyFormat';
import { findApiKeyByHash, getAccessRow, touchApiKey, type AccessRow, type ApiKeyRow, type Plan } from '../../domain/organizations/queries';
import type { AuthChangeListener } from '../../domain/auth/authChangeListener';
import { createChangeEvictedCache } from '../../lib/auth/changeEvictedCache';
import { isIpAllowed } from '../../domain/organizations/settingsModel';
import { currentPeriod, type ApiCallMeter } from '../../domain/organizations/usageMeter';
import { QUOTA_WARNING_SHARE } from '../../domain/organizations/quotaAlerts';

/**
 * THE place that decides whether a principal may act in an organization, on every org-scoped request:
 * 1. one query for the organization's status, plan, IP allowlist and the caller's live membership role
 *    (so a demotion or removal applies to tokens already issued), remembered between requests only while no
 *    change to any of them has been announced (evicted by this process's writes at once, by others' at their
 *    commit: migration 1090);
 * 2. an organization being deleted is gone (null → 404);
 * 3. API keys act only in their own organization, with the key's role; a session opened by an organization's
 *    single sign-on only in that organization;
 * 4. the IP allowlist (403 IP_NOT_ALLOWED);
 * 4b. the two-factor requirement: a user without two-factor sign-in is refused (403 TWO_FACTOR_REQUIRED);
 * 5. the monthly API-call quota (429 QUOTA_EXCEEDED), then the call is counted.
 *
 * The quota is not enforced on the organization management surface (`/api/v1/organizations/...`) so an owner over
 * the limit can still read usage and change the plan; those calls are counted all the same.
 */
export interface AccessDeps {
  db: Db;
  logger: Logger;
  meter: ApiCallMeter;
  plans: Record<Plan, PlanQuotas>;
  /** An organization passed 80% of its monthly API calls (`warning`) or reached them (`reached`): quotaAlerts.ts. */
  onQuota(organizationId: string, period: string, level: 'warning' | 'reached', used: number, limit: number): void;
  /** How long a remembered access row may be served at most (0: every request reads it). */
  cacheTtlMs: number;
  /** The process's feed of changes that keeps remembered rows current; none: nothing is remembered. */
  changes: AuthChangeListener | null;
}

/** (organization, user) pairs whose access row is remembered: ~0.3 KB each. */
const ACCESS_ROWS_KEPT = 10_000;

const QUOTA_EXEMPT_PREFIX = '/api/v1/organizations/';
const TOUCH_INTERVAL_MS = 60_000;

export function createAccess(deps: AccessDeps) {
  // Last-used is written at most once a minute per key and process (and the UPDATE itself guards across processes).
  const lastTouched = new Map<string, number>();
  const refusedKeyThrottle = createAuditThrottle({ windowMs: 60_000, maxKeys: 10_000 });
  // Step 1's row between requests: any change to the organization, the membership or the user's two-factor sign-in
  // evicts it (triggers of migration 1090, this process's own writes at once; lib/auth/changeEvictedCache.ts).
  const accessRows = createChangeEvictedCache<AccessRow>({
    ttlMs: deps.cacheTtlMs,
    maxEntries: ACCESS_ROWS_KEPT,
    ownersOf: (key) => key.split(':').filter(Boolean),
  });
  const changes = deps.changes;
  changes?.watch(accessRows);

  function presentedApiKey(ctx: Context): string | null {
    const header = ctx.get('x-api-key');
    if (header) return header.trim();
    const auth = ctx.get('authorization');
    const parts = auth.split(' ');
    if (parts.length === 2 && parts[0] === 'Bearer' && parts[1] && looksLikeApiKey(parts[1])) return parts[1];
    return null;
  }

  async function authenticateApiKey(ctx: Context): Promise<ApiKeyPrincipal | null> {
    const key = presentedApiKey(ctx);
    if (key === null) return null;
    const row = await findApiKeyByHash(deps.db, hashToken(key));
    if (!row) throw new AppError('INVALID_TOKEN', 'invalid token');
    const refusal = row.revoked_at ? 'revoked' : row.expires_at && row.expires_at.getTime() <= Date.now() ? 'expired' : null;
    if (refusal) {
      await auditRefusedKey(ctx, row, refusal);
      throw new AppError('INVALID_TOKEN', 'invalid token');
    }
    const now = Date.now();
    if ((lastTouched.get(row.id) ?? 0) + TOUCH_INTERVAL_MS <= now) {
      lastTouched.set(row.id, now);
      touchApiKey(deps.db, row.id).catch((err: unknown) => deps.logger.warn({ err }, 'api key last-used update failed'));
    }
    return { kind: 'apiKey', apiKeyId: row.id, organizationId: row.organization_id, role: row.role };
  }

  /**
   * A revoked or expired key still in use is a leaked or forgotten credential: the organization sees it in its
   * audit log (`api_key.rejected`), at most once a minute per key and process, whoever keeps presenting it.
   */
  async function auditRefusedKey(ctx: Context, row: ApiKeyRow, refusal: 'revoked' | 'expired'): Promise<void> {
    if (!refusedKeyThrottle.allow(row.id)) return;
    await recordAudit(deps.db, {
      organizationId: row.organization_id,
      actor: { type: 'apiKey', id: row.id, ip: ctx.ip, userAgent: ctx.get('user-agent') || null },
      action: 'api_key.rejected',
      target: { type: 'api_key', id: row.id },
      after: { reason: refusal, prefix: row.prefix, path: ctx.path },
    }).catch((err: unknown) => deps.logger.warn({ err }, 'audit of a refused API key failed'));
  }

  async function resolveOrganization(principal: Principal, organizationId: string, ctx: Context): Promise<OrganizationContext | null> {
    if (principal.kind === 'apiKey' && principal.organizationId !== organizationId) return null;
    // A session opened by an organization's single sign-on acts in that organization only: the others are not
    // visible to it (docs/auth.md#sessions-opened-by-sso).
    if (principal.kind === 'user' && principal.ssoOrganizationId && principal.ssoOrganizationId !== organizationId) return null;
    const userId = principal.kind === 'user' ? principal.userId : null;
    changes?.start();
    const row = await accessRows.read(`${organizationId}:${userId ?? ''}`, () => getAccessRow(deps.db, organizationId, userId));
    if (!row || row.status !== 'active') return null;
    const role = principal.kind === 'user' ? row.role : principal.role;
    if (!role) return null;
    // From here on the caller belongs to the organization: a refusal below is audited there (auditForbidden.ts).
    ctx.state.organizationId = organizationId;

    if (row.ip_allowlist?.length && !isIpAllowed(ctx.ip, row.ip_allowlist)) {
      throw new AppError('IP_NOT_ALLOWED', `requests from ${ctx.ip} are not allowed for this organization`);
    }

    // docs/auth.md#organization-requirement: members enrol through /api/auth/2fa, which needs no organization.
    if (principal.kind === 'user' && row.require_two_factor && !row.two_factor_enabled) {
      throw new AppError(
        'TWO_FACTOR_REQUIRED',
        'this organization requires two-factor sign-in; enrol an authenticator app with POST /api/auth/2fa/enrolment, then confirm a code',
      );
    }

    // The session check already applied the policy of the session's active organization; this covers an
    // organization named in the path.
    if (principal.kind === 'user' && idleBeyondPolicy(principal.sessionLastUsedMs, row.session_idle_timeout_minutes)) {
      await deleteSession(deps.db, principal.sessionId, principal.userId);
      throw new AppError('SESSION_EXPIRED', IDLE_BEYOND_POLICY_MESSAGE);
    }

    const limit = deps.plans[row.plan]?.apiCallsPerMonth ?? null;
    if (limit !== null && !ctx.path.startsWith(QUOTA_EXEMPT_PREFIX)) {
      const used = await deps.meter.used(organizationId);
      if (used >= limit) {
        deps.onQuota(organizationId, currentPeriod(), 'reached', used, limit);
        throw new AppError(
          'QUOTA_EXCEEDED',
          `the organization has used its ${limit} API calls for this month on the ${row.plan} plan; upgrade the plan or wait for next month`,
          undefined,
          { 'Retry-After': String(secondsToNextMonth(new Date())) },
        );
      }
      if (used + 1 >= Math.ceil(limit * QUOTA_WARNING_SHARE)) deps.onQuota(organizationId, currentPeriod(), 'warning', used + 1, limit);
    }
    deps.meter.record(organizationId);
    return { organizationId, role };
  }

  return { authenticateApiKey, resolveOrganization };
}

/** Until the quota's month ends (UTC): what Retry-After says to a refused request. */
export function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
