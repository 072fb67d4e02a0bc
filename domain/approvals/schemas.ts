import { z } from 'zod';
import { pageQuerySchema } from '../../lib/pagination';
import { APPROVAL_STATUSES } from './queries';

export const approvalParams = z.object({ id: z.string().max(100) });

export const listApprovalsQuery = pageQuerySchema.extend({
  status: z.enum(APPROVAL_STATUSES).optional().describe('only approvals in this state'),
  run_id: z.uuid().optional().describe("only this run's approvals"),
  awaiting: z
    .enum(['me'])
    .optional()
    .describe('`me`: only what the caller may decide now (pending, their role or id among the approvers, not yet decided by them, not a run they started unless self-approval is allowed)'),
});

export const approvalDecisionBody = z.strictObject({
  decision: z.enum(['approve', 'reject']),
  comment: z.string().max(2000).optional().describe('shown to later nodes as `comment` and kept with the decision'),
  values: z.record(z.string(), z.unknown()).optional().default({}).describe("the form's fields by name (required ones to approve)"),
});

const formFieldView = z.object({
  name: z.string(),
  label: z.string().optional(),
  type: z.enum(['string', 'number', 'boolean', 'choice']),
  options: z.array(z.string()).optional(),
  required: z.boolean(),
});

const decisionView = z.object({
  user_id: z.string(),
  decision: z.enum(['approved', 'rejected']),
  comment: z.string().nullable(),
  values: z.record(z.string(), z.unknown()),
  at: z.string(),
});

export const approvalView = z
  .object({
    id: z.string(),
    run_id: z.string(),
    workflow_id: z.string(),
    workflow_name: z.string().nullable(),
    node_id: z.string(),
    status: z.enum(APPROVAL_STATUSES),
    approvers: z.object({ role: z.string().nullable(), users: z.array(z.string()) }),
    required: z.number().int(),
    allow_self_approval: z.boolean(),
    requested_by: z.string().nullable(),
    message: z.string().nullable(),
    form: z.array(formFieldView),
    decisions: z.array(decisionView),
    expires_at: z.string(),
    created_at: z.string(),
    decided_at: z.string().nullable(),
    can_decide: z.boolean().describe('whether the caller may decide on it now'),
  })
  .meta({ id: 'Approval', description: "An approval node's request: who may decide, the form, the decisions so far and its state" });

export type ApprovalView = z.infer<typeof approvalView>;
