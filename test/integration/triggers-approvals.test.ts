import { randomUUID } from 'node:crypto';
import { startRun, waitForRun } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant, type TestUser } from '../helpers/tenants';

/** Manual runs with requireApproval: waiting visibly, approvers by role, self-approval, rejection, timeout, audit. */

let api: TestApi;
let tenant: TestTenant;
let admin: TestUser;
let admin2: TestUser;
let member: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
  admin = await addTestMember(api, tenant, 'admin');
  admin2 = await addTestMember(api, tenant, 'admin');
  member = await addTestMember(api, tenant, 'member');
  viewer = await addTestMember(api, tenant, 'viewer');
});
afterAll(async () => {
  await api.close();
});

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };

async function gatedWorkflow(config: Record<string, unknown>): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: { name: `gate ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers: [{ id: 'gate', type: 'manual', config: { requireApproval: true, ...config } }] },
  });
  expect(res.status).toBe(201);
  expect((await api.request('POST', `/api/v1/workflows/${res.body.id}/activate`, { token: tenant.owner.token })).status).toBe(200);
  return res.body.id as string;
}

const decide = (workflowId: string, runId: string, verb: 'approve' | 'reject', user: TestUser, comment?: string) =>
  api.request('POST', `/api/v1/workflows/${workflowId}/runs/${runId}/${verb}`, { token: user.token, body: comment === undefined ? {} : { comment } });

async function auditActions(runId: string): Promise<{ action: string; actor_id: string | null }[]> {
  return api.deps.db('audit_logs').where({ organization_id: tenant.organizationId, target_id: runId }).orderBy('created_at').select('action', 'actor_id');
}

test('a run waits, pending and visibly awaiting approval; only a listed role decides; the decision is audited', async () => {
  const workflowId = await gatedWorkflow({ approvers: ['admin'] });
  const started = await startRun(api, member.token, workflowId);
  expect(started).toMatchObject({ status: 'pending', awaiting_approval: true, trigger: { type: 'manual', approval: { status: 'pending', approvers: ['admin'] } } });

  const waiting = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${started.id}`, { token: member.token });
  expect(waiting.body).toMatchObject({ status: 'pending', awaiting_approval: true });
  expect(waiting.body.node_states.echo.status).toBe('pending');

  for (const user of [viewer, member, tenant.owner]) {
    const refused = await decide(workflowId, started.id, 'approve', user, 'looks fine');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/only admin may decide/);
  }
  const approved = await decide(workflowId, started.id, 'approve', admin, 'ship it');
  expect(approved.status).toBe(200);
  const run = await waitForRun(api, member.token, workflowId, started.id);
  expect(run).toMatchObject({ status: 'completed', awaiting_approval: false });
  expect(run.trigger.approval).toMatchObject({ status: 'approved', decidedBy: admin.userId, comment: 'ship it' });
  expect(run.node_states.echo.status).toBe('completed');

  const again = await decide(workflowId, started.id, 'approve', admin2);
  expect(again.status).toBe(409);
  expect(await auditActions(started.id)).toEqual([
    { action: 'run.started', actor_id: member.userId },
    { action: 'run.approved', actor_id: admin.userId },
  ]);
});

test('the requester cannot approve their own run unless allowSelfApproval', async () => {
  const strict = await gatedWorkflow({ approvers: ['admin', 'owner'] });
  const own = await startRun(api, admin.token, strict);
  const self = await decide(strict, own.id, 'approve', admin);
  expect(self.status).toBe(403);
  expect(self.body.error.message).toMatch(/you requested this run/);
  expect((await decide(strict, own.id, 'approve', admin2)).status).toBe(200);
  expect((await waitForRun(api, admin.token, strict, own.id)).status).toBe('completed');

  const lenient = await gatedWorkflow({ approvers: ['admin'], allowSelfApproval: true });
  const mine = await startRun(api, admin.token, lenient);
  expect((await decide(lenient, mine.id, 'approve', admin)).status).toBe(200);
  expect((await waitForRun(api, admin.token, lenient, mine.id)).status).toBe('completed');
});

test('rejection needs a comment and cancels the run without running a node', async () => {
  const workflowId = await gatedWorkflow({});
  const started = await startRun(api, member.token, workflowId);
  expect((await decide(workflowId, started.id, 'reject', admin)).status).toBe(400);
  const rejected = await decide(workflowId, started.id, 'reject', admin, 'not today');
  expect(rejected.status).toBe(200);
  const run = await waitForRun(api, member.token, workflowId, started.id);
  expect(run.status).toBe('cancelled');
  expect(run.errors[0]).toMatchObject({ code: 'APPROVAL_REJECTED', message: 'rejected: not today' });
  expect(run.node_states.echo.status).toBe('cancelled');
  expect(run.trigger.approval).toMatchObject({ status: 'rejected', decidedBy: admin.userId });
  expect(await auditActions(started.id)).toEqual([
    { action: 'run.started', actor_id: member.userId },
    { action: 'run.rejected', actor_id: admin.userId },
  ]);
});

test('the approval timeout fails (or cancels) the run, audited as a system decision', async () => {
  const failing = await gatedWorkflow({ approvalTimeout: '1s' });
  const a = await startRun(api, member.token, failing);
  const failed = await waitForRun(api, member.token, failing, a.id);
  expect(failed.status).toBe('failed');
  expect(failed.errors[0].code).toBe('APPROVAL_TIMED_OUT');
  expect(failed.trigger.approval.status).toBe('timed_out');
  expect((await auditActions(a.id)).map((e) => e.action)).toEqual(['run.started', 'run.approval_timed_out']);
  expect((await decide(failing, a.id, 'approve', admin)).status).toBe(409);

  const cancelling = await gatedWorkflow({ approvalTimeout: '1s', onApprovalTimeout: 'cancel' });
  const b = await startRun(api, member.token, cancelling);
  expect((await waitForRun(api, member.token, cancelling, b.id)).status).toBe('cancelled');
});

test('retrying a rejected run goes through the approval gate again', async () => {
  const workflowId = await gatedWorkflow({});
  const started = await startRun(api, member.token, workflowId);
  expect((await decide(workflowId, started.id, 'reject', admin, 'no')).status).toBe(200);
  expect((await waitForRun(api, member.token, workflowId, started.id)).status).toBe('cancelled');
  const retried = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/retry`, { token: member.token });
  expect(retried.status).toBe(201);
  expect(retried.body).toMatchObject({ status: 'pending', awaiting_approval: true, trigger: { type: 'retry', approval: { status: 'pending' } } });
  expect((await decide(workflowId, retried.body.id, 'approve', admin)).status).toBe(200);
  expect((await waitForRun(api, member.token, workflowId, retried.body.id)).status).toBe('completed');
});

test('a waiting run can be cancelled; runs without an approval gate cannot be approved', async () => {
  const workflowId = await gatedWorkflow({});
  const started = await startRun(api, member.token, workflowId);
  const cancelled = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token: member.token });
  expect(cancelled.status).toBe(200);
  expect((await waitForRun(api, member.token, workflowId, started.id)).status).toBe('cancelled');

  const plain = await api.request('POST', '/api/v1/workflows', { token: tenant.owner.token, body: { name: 'plain', dag: { nodes: [echo] } } });
  const run = await startRun(api, member.token, plain.body.id);
  expect(run.awaiting_approval).toBe(false);
  const res = await decide(plain.body.id, run.id, 'approve', admin);
  expect(res.status).toBe(409);
  const other = await createTestTenant(api);
  expect((await decide(workflowId, started.id, 'approve', other.owner)).status).toBe(404);
});
