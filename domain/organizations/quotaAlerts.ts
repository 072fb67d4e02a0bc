import { apiQuotaNotice } from '../../lib/emails/security';
import { recordAudit } from '../audit/record';
import { insertOutboxEvent } from '../events/queries';
import { deliverMail, enqueueMail } from '../notifications/mailOutbox';
import type { OrgServiceDeps } from './serviceDeps';
import { claimQuotaAlert, getOrganizationAnyStatus, managerEmails } from './queries';

export type QuotaAlertLevel = 'warning' | 'reached';

/** The share of a quota at which its warning goes out. */
export const QUOTA_WARNING_SHARE = 0.8;

/**
 * Quota alerts (docs/organizations.md#quotas): at 80% of the monthly API calls and at the limit, once per
 * organization, level and month across API instances (quota_alerts' primary key): an audit entry, an event
 * (`organization.quota_warning` / `organization.quota_exceeded`) and mail to the owners and admins through the mail
 * outbox, in one transaction. Runs off the request path; a failure is logged and the next request tries again.
 */
export function createQuotaAlerts(d: OrgServiceDeps) {
  const claimedHere = new Set<string>();
  return function onApiCallQuota(organizationId: string, period: string, level: QuotaAlertLevel, used: number, limit: number): void {
    const key = `${organizationId}:${period}:${level}`;
    if (claimedHere.has(key)) return;
    claimedHere.add(key);
    void (async () => {
      const mails = await d.db.transaction(async (trx) => {
        if (!(await claimQuotaAlert(trx, organizationId, level === 'reached' ? 'api_calls' : 'api_calls_80', period))) return [];
        const org = await getOrganizationAnyStatus(trx, organizationId);
        if (!org) return [];
        const facts = { quota: 'api_calls' as const, period, used, limit };
        await recordAudit(trx, {
          organizationId,
          actor: { type: 'system', id: 'quota' },
          action: level === 'reached' ? 'organization.quota_exceeded' : 'organization.quota_warning',
          target: { type: 'organization', id: organizationId },
          after: facts,
        });
        await insertOutboxEvent(trx, {
          organizationId,
          type: level === 'reached' ? 'organization.quota_exceeded' : 'organization.quota_warning',
          payload: { organizationID: organizationId, ...facts },
        });
        const notice = apiQuotaNotice({ organizationName: org.name, used, limit, period, reached: level === 'reached' });
        const queued: string[] = [];
        for (const to of await managerEmails(trx, organizationId)) {
          queued.push(await enqueueMail(trx, d.box, { organizationId, topic: `quota:${level}`, topicId: null, to, ...notice }));
        }
        return queued;
      });
      for (const id of mails) await deliverMail(d, id);
    })().catch((err: unknown) => {
      claimedHere.delete(key);
      d.logger.warn({ err, organizationId }, 'quota alert failed');
    });
  };
}
