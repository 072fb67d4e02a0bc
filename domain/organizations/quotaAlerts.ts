import { quotaExceededEmail } from '../../lib/emails/organizations';
import type { OrgServiceDeps } from './serviceDeps';
import { claimQuotaAlert, getOrganizationAnyStatus, ownerEmails } from './queries';

/**
 * One alert e-mail to the owners per organization, quota and period, across API instances (quota_alerts has a
 * primary key on the three). Runs off the request path; failures are logged.
 */
export function createQuotaAlerts(d: OrgServiceDeps) {
  const claimedHere = new Set<string>();
  return function onApiCallQuotaExceeded(organizationId: string, period: string): void {
    const key = `${organizationId}:${period}`;
    if (claimedHere.has(key)) return;
    claimedHere.add(key);
    void (async () => {
      if (!(await claimQuotaAlert(d.db, organizationId, 'api_calls', period))) return;
      const org = await getOrganizationAnyStatus(d.db, organizationId);
      if (!org) return;
      const limit = d.config.organizations.plans[org.plan].apiCallsPerMonth ?? 0;
      for (const to of await ownerEmails(d.db, organizationId)) {
        await d.mailer.send(quotaExceededEmail({ to, organizationName: org.name, quota: 'API calls', limit, period }));
      }
    })().catch((err: unknown) => {
      claimedHere.delete(key);
      d.logger.warn({ err, organizationId }, 'quota alert failed');
    });
  };
}
