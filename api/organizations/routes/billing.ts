import { defineRoute, type RouteDef } from '../../http/route';
import { can } from '../../../lib/permissions';
import { billingSchema } from '../../../domain/billing/schemas';
import type { BillingService } from '../../../domain/billing/service';
import { orgIdParams } from '../../../domain/organizations/schemas';

const tags = ['organizations'];

export function billingRoutes(billing: BillingService): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/billing',
      operationId: 'getOrganizationBilling',
      summary: "The organization's billing state: `active`, or `past_due` after a failed renewal",
      description:
        'A failed renewal reported by the billing provider makes the state `past_due` (the owners are alerted by ' +
        'e-mail and the audit log has `billing.payment_failed`); the next successful payment (a renewal or an upgrade) ' +
        'makes it `active` again (`billing.payment_recovered`). Roles with the billing permission (owner) also see the ' +
        'recent payments.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'organization:read',
      params: orgIdParams,
      responses: { 200: { description: 'the billing state', schema: billingSchema } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization }) => ({
        body: await billing.view(organization.organizationId, can(organization.role, 'organization:billing')),
      }),
    }),
  ];
}
