import { pageSchema } from '../../lib/pagination';
import { approvalDecisionBody, approvalParams, approvalView, listApprovalsQuery } from '../../domain/approvals/schemas';
import type { NodeApprovalsService } from '../../domain/approvals/service';
import { defineRoute, type RouteDef } from '../http/route';

/** Approvals of approval nodes (docs/runs.md#approval): what waits for people, and their decisions. */
export function approvalRoutes(service: NodeApprovalsService): RouteDef[] {
  const tags = ['approvals'];
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/approvals',
      operationId: 'listApprovals',
      summary: "The organization's approvals, newest first; `awaiting=me`: what the caller may decide now",
      tags,
      auth: 'org',
      permission: 'run:read',
      query: listApprovalsQuery,
      responses: { 200: { description: 'a page of approvals', schema: pageSchema(approvalView) } },
      handler: async ({ organization, actor, query }) => ({ body: await service.list(organization, actor, query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/approvals/{id}',
      operationId: 'getApproval',
      summary: 'One approval: who may decide, its form, the decisions so far, and whether the caller may decide',
      tags,
      auth: 'org',
      permission: 'run:read',
      params: approvalParams,
      responses: { 200: { description: 'the approval', schema: approvalView } },
      handler: async ({ organization, actor, params }) => ({ body: await service.get(organization, actor, params.id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/approvals/{id}/decision',
      operationId: 'decideApproval',
      summary: 'Approve or reject an approval (a person: API keys get HUMAN_REQUIRED)',
      description:
        'The caller must be among the approvers (a role at least the approval\'s `role`, or a listed user), must not ' +
        "have started the run unless `allow_self_approval`, and decides once. To approve, the form's required fields " +
        'are given in `values` (each of its type; a choice among its options). N of M: the approval is approved when ' +
        '`required` people approved; one rejection rejects. The final decision resumes the run. Audited as ' +
        'approval.approved / approval.rejected.',
      tags,
      auth: 'org',
      permission: 'run:read',
      params: approvalParams,
      body: approvalDecisionBody,
      responses: { 200: { description: 'the approval after the decision', schema: approvalView } },
      errors: ['INVALID_STATE', 'HUMAN_REQUIRED', 'TWO_FACTOR_REQUIRED', 'CONFLICT'],
      handler: async ({ organization, actor, params, body }) => ({ body: await service.decide(organization, actor, params.id, body) }),
    }),
  ];
}
