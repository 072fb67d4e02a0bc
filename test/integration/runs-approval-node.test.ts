import type { TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, startApiWithTenant, type TestTenant, type TestUser } from '../helpers/tenants';
import { startRun, toolNode, waitForRun, type RunBody } from '../helpers/runs';
import { mailsTo, waitForMail } from '../helpers/mail';

/**
 * The approval node (docs/runs.md#approval): a run waits durably, anywhere in its DAG, for people to decide. Who may
 * decide (role order, listed users, N of M, four eyes, persons only), the form and the branches its outcome takes,
 * the timeout's outcomes, cancellation, notifications (mail, approval.requested) and `awaiting=me`. Through the real
 * API, worker, mail catcher and Temporal.
 */

let api: TestApi;
let tenant: TestTenant;
let owner: TestUser;
let admin: TestUser;
let admin2: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ api, tenant } = await startApiWithTenant());
  owner = tenant.owner;
  admin = await addTestMember(api, tenant, 'admin');
  admin2 = await addTestMember(api, tenant, 'admin');
  member = await addTestMember(api, tenant, 'member');
});
afterAll(() => api.close());

const FORM = [
  { name: 'amount', type: 'number', required: true },
  { name: 'center', label: 'Cost center', type: 'choice', options: ['R&D', 'Sales'] },
];

/** A workflow: `gate` (an approval with `config`), then `paid` on approval and `refused` on rejection when asked. */
async function saved(config: Record<string, unknown>, extraNodes: unknown[] = []): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token: owner.token,
    body: {
      name: 'pay an invoice',
      parameters: [{ name: 'amount', type: 'number', required: true }],
      dag: {
        nodes: [
          toolNode('prepare', 'json_transform', { expression: '$', data: { amount: '${params.amount}' } }),
          { id: 'gate', type: 'approval', config: { approvers: { role: 'admin' }, message: 'Pay ${params.amount} EUR?', form: FORM, ...config } },
          toolNode('paid', 'json_transform', { expression: '$', data: { center: '${nodes.gate.form.center}', amount: '${nodes.gate.form.amount}' } }),
          ...extraNodes,
        ],
        edges: [
          { from: 'prepare', to: 'gate' },
          { from: 'gate', to: 'paid' },
        ],
      },
    },
  });
  if (res.status !== 201) throw new Error(`save answered ${res.status}: ${res.text}`);
  return res.body.id;
}

/** Polls the run until its approval node waits; the approval's id. */
async function awaiting(workflowId: string, runId: string): Promise<string> {
  // A run still `pending` has not started yet (its worker has not picked it up): wait for it too.
  const run = await waitForRun(api, owner.token, workflowId, runId, (r) => Boolean(r.node_states?.gate?.approval_id) || !['pending', 'running'].includes(r.status), 30_000);
  if (!run.node_states?.gate?.approval_id) throw new Error(`the run never waited: ${run.status} ${JSON.stringify(run.node_states?.gate?.error ?? run.errors)}`);
  expect(run.status).toBe('running');
  expect(run.node_states.gate).toMatchObject({ status: 'running', waiting_until: expect.any(String) });
  return run.node_states.gate.approval_id;
}

const decide = (approvalId: string, as: string, body: Record<string, unknown>) =>
  api.request('POST', `/api/v1/approvals/${approvalId}/decision`, { token: as, body });

const finished = (workflowId: string, runId: string): Promise<RunBody> => waitForRun(api, owner.token, workflowId, runId);

test('admins decide (an owner may too), never the requester; the form and comment reach later nodes; approvers are mailed', async () => {
  const workflowId = await saved({});
  const run = await startRun(api, owner.token, workflowId, { amount: 1200 });
  const approvalId = await awaiting(workflowId, run.id);

  const view = await api.request('GET', `/api/v1/approvals/${approvalId}`, { token: admin.token });
  expect(view.status).toBe(200);
  expect(view.body).toMatchObject({
    id: approvalId,
    run_id: run.id,
    workflow_id: workflowId,
    workflow_name: 'pay an invoice',
    node_id: 'gate',
    status: 'pending',
    approvers: { role: 'admin', users: [] },
    required: 1,
    requested_by: owner.userId,
    message: 'Pay 1200 EUR?',
    can_decide: true,
  });
  expect((await api.request('GET', `/api/v1/approvals/${approvalId}`, { token: owner.token })).body.can_decide).toBe(false);

  // Mailed: the admins, not the requester (four eyes), not the member (below the role).
  const mail = await waitForMail(admin.email, /waiting for your approval/);
  expect(mail.text).toContain(`/approvals/decide?organization=${tenant.organizationId}&approval=${approvalId}`);
  expect(mail.text).toContain('"pay an invoice"');
  await waitForMail(admin2.email, /waiting for your approval/);
  expect(await mailsTo(owner.email)).toEqual([]);
  expect(await mailsTo(member.email)).toEqual([]);
  const events = await api.deps.db('outbox_events').where({ organization_id: tenant.organizationId, type: 'approval.requested' });
  expect(events.map((e) => e.payload.approvalId)).toContain(approvalId);

  // awaiting=me: the admins see it; the requester and the member do not.
  const mine = async (as: string) => (await api.request('GET', '/api/v1/approvals?awaiting=me', { token: as })).body.data.map((a: { id: string }) => a.id);
  expect(await mine(admin.token)).toContain(approvalId);
  expect(await mine(owner.token)).not.toContain(approvalId);
  expect(await mine(member.token)).not.toContain(approvalId);

  // Refused: the requester, a member below the role, a required field missing, a choice not offered.
  const self = await decide(approvalId, owner.token, { decision: 'approve', values: { amount: 1200, center: 'R&D' } });
  expect(self.status).toBe(403);
  expect(self.body.error.message).toMatch(/four eyes/);
  expect((await decide(approvalId, member.token, { decision: 'approve', values: { amount: 1 } })).status).toBe(403);
  const bad = await decide(approvalId, admin.token, { decision: 'approve', values: { center: 'Marketing' } });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['body.values.amount', 'body.values.center']);

  const ok = await decide(approvalId, admin.token, { decision: 'approve', comment: 'budget checked', values: { amount: 1150, center: 'R&D' } });
  expect(ok.status).toBe(200);
  expect(ok.body).toMatchObject({ status: 'approved', decisions: [{ user_id: admin.userId, decision: 'approved', comment: 'budget checked' }] });
  const done = await finished(workflowId, run.id);
  expect(done.status).toBe('completed');
  expect(done.node_states.gate.output).toMatchObject({
    approval_id: approvalId,
    decision: 'approved',
    comment: 'budget checked',
    form: { amount: 1150, center: 'R&D' },
    branch: null,
  });
  expect(done.node_states.paid.output).toEqual({ result: { center: 'R&D', amount: 1150 } });

  // Final: a second decision is refused; the decision is audited.
  expect((await decide(approvalId, admin2.token, { decision: 'reject' })).body.error.code).toBe('INVALID_STATE');
  const audit = await api.deps.db('audit_logs').where({ organization_id: tenant.organizationId, action: 'approval.approved' });
  expect(audit.map((a) => a.target_id)).toContain(approvalId);
});

test('a rejection takes rejected_branch (the approved branch is skipped); without one it fails the node', async () => {
  const withBranch = await saved({ approved_branch: 'paid', rejected_branch: 'refused' }, [
    toolNode('refused', 'json_transform', { expression: '$', data: '${nodes.gate.comment}' }),
  ]);
  const run = await startRun(api, owner.token, withBranch, { amount: 10 });
  const approvalId = await awaiting(withBranch, run.id);
  expect((await decide(approvalId, admin.token, { decision: 'reject', comment: 'duplicate invoice' })).status).toBe(200);
  const done = await finished(withBranch, run.id);
  expect(done.status).toBe('completed');
  expect(done.node_states.gate.output).toMatchObject({ decision: 'rejected', branch: 'refused', form: {} });
  expect(done.node_states.paid.status).toBe('skipped');
  expect(done.node_states.refused.output).toEqual({ result: 'duplicate invoice' });

  const plain = await saved({});
  const second = await startRun(api, owner.token, plain, { amount: 10 });
  const secondApproval = await awaiting(plain, second.id);
  expect((await decide(secondApproval, admin2.token, { decision: 'reject', comment: 'no' })).status).toBe(200);
  const failed = await finished(plain, second.id);
  expect(failed.status).toBe('failed');
  expect(failed.node_states.gate.error).toMatchObject({ code: 'APPROVAL_REJECTED', message: expect.stringContaining('no') });
  expect(failed.node_states.paid.status).toBe('skipped');
});

test('N of M by listed users: two approvals needed, each person once; the run waits until the second', async () => {
  const workflowId = await saved({ approvers: { users: [member.userId, admin.userId, admin2.userId] }, required: 2 });
  const run = await startRun(api, owner.token, workflowId, { amount: 5 });
  const approvalId = await awaiting(workflowId, run.id);
  // A listed member decides whatever their role; an owner who is not listed (and requested) does not.
  const first = await decide(approvalId, member.token, { decision: 'approve', values: { amount: 5, center: 'Sales' } });
  expect(first.status).toBe(200);
  expect(first.body.status).toBe('pending');
  expect((await decide(approvalId, member.token, { decision: 'approve', values: { amount: 5 } })).body.error.code).toBe('CONFLICT');
  await new Promise((r) => setTimeout(r, 500));
  expect((await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${run.id}`, { token: owner.token })).body.status).toBe('running');
  expect((await decide(approvalId, admin.token, { decision: 'approve', comment: 'second', values: { amount: 4, center: 'R&D' } })).body.status).toBe('approved');
  const done = await finished(workflowId, run.id);
  expect(done.status).toBe('completed');
  expect(done.node_states.gate.output.decisions.map((d: { user_id: string }) => d.user_id)).toEqual([member.userId, admin.userId]);
  // The form of the approval that completed it.
  expect(done.node_states.paid.output).toEqual({ result: { center: 'R&D', amount: 4 } });
});

test('an API key never decides; another organization sees 404', async () => {
  const workflowId = await saved({ allow_self_approval: true });
  const run = await startRun(api, owner.token, workflowId, { amount: 5 });
  const approvalId = await awaiting(workflowId, run.id);
  const key = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/api-keys`, { token: owner.token, body: { name: 'ci', role: 'member' } });
  expect(key.status).toBe(201);
  const byKey = await api.request('POST', `/api/v1/approvals/${approvalId}/decision`, { headers: { 'x-api-key': key.body.key }, body: { decision: 'approve', values: { amount: 1 } } });
  expect(byKey.status).toBe(403);
  expect(byKey.body.error.code).toBe('HUMAN_REQUIRED');
  const mineByKey = await api.request('GET', '/api/v1/approvals?awaiting=me', { headers: { 'x-api-key': key.body.key } });
  expect(mineByKey.status).toBe(400);

  const other = await createTestTenant(api);
  expect((await api.request('GET', `/api/v1/approvals/${approvalId}`, { token: other.owner.token })).status).toBe(404);
  expect((await decide(approvalId, other.owner.token, { decision: 'approve', values: { amount: 1 } })).status).toBe(404);
  expect((await api.request('GET', '/api/v1/approvals', { token: other.owner.token })).body.data).toEqual([]);

  // allow_self_approval: the requester may decide.
  expect((await decide(approvalId, owner.token, { decision: 'approve', values: { amount: 5, center: 'Sales' } })).body.status).toBe('approved');
  expect((await finished(workflowId, run.id)).status).toBe('completed');
});

test('the timeout: fail (APPROVAL_TIMED_OUT), take timed_out_branch, or count as a rejection', async () => {
  const failing = await saved({ timeout: '2s' });
  const run = await startRun(api, owner.token, failing, { amount: 1 });
  const done = await finished(failing, run.id);
  expect(done.status).toBe('failed');
  expect(done.node_states.gate.error).toMatchObject({ code: 'APPROVAL_TIMED_OUT' });
  const approval = await api.deps.db('run_approvals').where({ run_id: run.id }).first();
  expect(approval.status).toBe('timed_out');
  expect((await decide(approval.id, admin.token, { decision: 'approve', values: { amount: 1 } })).body.error.code).toBe('INVALID_STATE');

  const branching = await saved({ timeout: '2s', on_timeout: 'branch', timed_out_branch: 'late', approved_branch: 'paid' }, [
    toolNode('late', 'json_transform', { expression: '$', data: 'escalated' }),
  ]);
  const late = await finished(branching, (await startRun(api, owner.token, branching, { amount: 1 })).id);
  expect(late.status).toBe('completed');
  expect(late.node_states.gate.output).toMatchObject({ decision: 'timed_out', branch: 'late' });
  expect(late.node_states.paid.status).toBe('skipped');
  expect(late.node_states.late.output).toEqual({ result: 'escalated' });

  const rejecting = await saved({ timeout: '2s', on_timeout: 'reject' });
  const rejected = await finished(rejecting, (await startRun(api, owner.token, rejecting, { amount: 1 })).id);
  expect(rejected.node_states.gate.error).toMatchObject({ code: 'APPROVAL_REJECTED', message: expect.stringContaining('counted as a rejection') });
});

test('cancelling the run closes its approval', async () => {
  const workflowId = await saved({});
  const run = await startRun(api, owner.token, workflowId, { amount: 1 });
  const approvalId = await awaiting(workflowId, run.id);
  expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/cancel`, { token: owner.token })).status).toBe(200);
  const cancelled = await finished(workflowId, run.id);
  expect(cancelled.status).toBe('cancelled');
  expect(cancelled.node_states.gate.status).toBe('cancelled');
  const view = await api.request('GET', `/api/v1/approvals/${approvalId}`, { token: admin.token });
  expect(view.body).toMatchObject({ status: 'cancelled', can_decide: false });
  expect((await decide(approvalId, admin.token, { decision: 'approve', values: { amount: 1 } })).body.error.code).toBe('INVALID_STATE');
});

test('save-time checks name each problem of an approval node', async () => {
  const res = await api.request('POST', '/api/v1/workflows/validate', {
    token: owner.token,
    body: {
      name: 'bad approval',
      dag: {
        nodes: [
          { id: 'gate', type: 'approval', config: { approvers: { users: [owner.userId] }, required: 2, timeout: '0s', on_timeout: 'branch', approved_branch: 'ghost', message: '${nodes.nope.x}', form: [{ name: 'c', type: 'choice' }] } },
        ],
        edges: [],
      },
    },
  });
  expect(res.status).toBe(422);
  const paths = res.body.error.details.map((p: { path: string }) => p.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'dag.nodes.gate.config.required',
      'dag.nodes.gate.config.timeout',
      'dag.nodes.gate.config.timed_out_branch',
      'dag.nodes.gate.config.approved_branch',
      'dag.nodes.gate.config.form[0].options',
      'dag.nodes.gate.config.message',
    ]),
  );
});
