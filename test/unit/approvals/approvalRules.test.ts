import { approvalConfigSchema } from '../../../lib/dag/model';
import { approvalBranchProblems, approvalProblems, approvalTargets } from '../../../lib/dag/validation/approvalNode';
import type { ReferenceScope } from '../../../lib/dag/validation/references';
import type { ApprovalRow } from '../../../domain/approvals/queries';
import { afterDecision, checkMayDecide, formValueProblems, isEligible, outcomeOf } from '../../../domain/approvals/rules';
import { fakeEnv } from '../dag/validation/fakeEnv';

const USER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const THIRD = '00000000-0000-4000-8000-000000000003';
const base = 'dag.nodes.ok';
const scope: ReferenceScope = { hasNode: (id) => id === 'a', ancestors: () => new Set(['a']), outputsOf: () => null, parameters: [] };
const config = (raw: Record<string, unknown>) => approvalConfigSchema.parse(raw);

describe('approval node validation', () => {
  test('who decides: a role, users or both; N of M within the listed users; no user twice', () => {
    expect(approvalProblems(scope, fakeEnv, 'ok', config({ approvers: {} }), base)).toEqual([
      { path: `${base}.config.approvers`, problem: expect.stringContaining('name who decides') },
    ]);
    expect(approvalProblems(scope, fakeEnv, 'ok', config({ approvers: { users: [USER, USER] }, required: 3 }), base).map((p) => p.path)).toEqual([
      `${base}.config.approvers.users`,
      `${base}.config.required`,
    ]);
    expect(approvalProblems(scope, fakeEnv, 'ok', config({ approvers: { role: 'admin' }, required: 3 }), base)).toEqual([]);
  });

  test('timeout from 1s to 366d; form fields distinct, options for choices only; message references checked', () => {
    const problems = approvalProblems(
      scope,
      fakeEnv,
      'ok',
      config({
        approvers: { role: 'admin' },
        timeout: '367d',
        message: 'Pay ${ghost.amount}? {{secret.KEY}}',
        form: [
          { name: 'amount', type: 'number', options: ['1'] },
          { name: 'amount', type: 'string' },
          { name: 'center', type: 'choice' },
        ],
      }),
      base,
    );
    expect(problems.map((p) => p.path)).toEqual([
      `${base}.config.timeout`,
      `${base}.config.form[0].options`,
      `${base}.config.form[1].name`,
      `${base}.config.form[2].options`,
      `${base}.config.message`,
      `${base}.config.message`,
    ]);
    expect(approvalProblems(scope, fakeEnv, 'ok', config({ approvers: { role: 'admin' }, timeout: '0s' }), base)).toEqual([
      { path: `${base}.config.timeout`, problem: 'from 1s to 366d' },
    ]);
  });

  test('branches: nodes of the graph, not itself; on_timeout branch names its branch, and only then', () => {
    const c = config({ approvers: { role: 'admin' }, approved_branch: 'ghost', rejected_branch: 'ok', on_timeout: 'branch' });
    expect(approvalBranchProblems('ok', c, base, new Set(['ok', 'a']))).toEqual([
      { path: `${base}.config.approved_branch`, problem: '"ghost" is not a node of the graph' },
      { path: `${base}.config.rejected_branch`, problem: 'an approval cannot branch to itself' },
      { path: `${base}.config.timed_out_branch`, problem: 'required: on_timeout is branch' },
    ]);
    const stray = config({ approvers: { role: 'admin' }, timed_out_branch: 'a' });
    expect(approvalBranchProblems('ok', stray, base, new Set(['ok', 'a']))).toEqual([
      { path: `${base}.config.timed_out_branch`, problem: 'taken only with on_timeout: branch' },
    ]);
    expect(approvalTargets(config({ approvers: { role: 'admin' }, approved_branch: 'a' }))).toEqual(['a', undefined, undefined]);
  });
});

function row(extra: Partial<ApprovalRow> = {}): ApprovalRow {
  return {
    id: '00000000-0000-4000-8000-0000000000aa',
    organization_id: 'o',
    workflow_id: 'w',
    run_id: 'r',
    node_id: 'ok',
    status: 'pending',
    approver_role: 'admin',
    approver_users: [],
    required: 1,
    allow_self_approval: false,
    requested_by: USER,
    message: null,
    form: [],
    decisions: [],
    expires_at: new Date(),
    created_at: new Date(),
    decided_at: null,
    ...extra,
  };
}

describe('approval decisions', () => {
  test('the role order: an owner decides what an admin may; a member does not; a listed user does whatever their role', () => {
    expect(isEligible(row(), OTHER, 'owner')).toBe(true);
    expect(isEligible(row(), OTHER, 'admin')).toBe(true);
    expect(isEligible(row(), OTHER, 'member')).toBe(false);
    expect(isEligible(row({ approver_role: null, approver_users: [OTHER] }), OTHER, 'viewer')).toBe(true);
    expect(isEligible(row({ approver_role: null, approver_users: [OTHER] }), THIRD, 'owner')).toBe(false);
  });

  test('four eyes, one decision per person, final states refuse', () => {
    expect(() => checkMayDecide(row(), USER, 'owner')).toThrow(/four eyes/);
    expect(() => checkMayDecide(row({ allow_self_approval: true }), USER, 'owner')).not.toThrow();
    expect(() => checkMayDecide(row({ decisions: [{ user_id: OTHER, decision: 'approved', comment: null, values: {}, at: '' }], required: 2 }), OTHER, 'admin')).toThrow(
      /already decided/,
    );
    expect(() => checkMayDecide(row({ status: 'timed_out' }), OTHER, 'admin')).toThrow(/already timed out/);
    expect(() => checkMayDecide(row(), OTHER, 'member')).toThrow(/role admin or higher/);
  });

  test('N of M: approved at the required count; one rejection rejects', () => {
    const two = row({ required: 2 });
    const first = afterDecision(two, { user_id: OTHER, decision: 'approved', comment: null, values: { a: 1 }, at: 't1' });
    expect(first.status).toBe('pending');
    const second = afterDecision({ ...two, decisions: first.decisions }, { user_id: THIRD, decision: 'approved', comment: 'ok', values: { a: 2 }, at: 't2' });
    expect(second.status).toBe('approved');
    expect(outcomeOf({ id: two.id, status: 'approved', decisions: second.decisions })).toEqual({
      approval_id: two.id,
      decision: 'approved',
      comment: 'ok',
      form: { a: 2 },
      decisions: second.decisions,
    });
    expect(afterDecision({ ...two, decisions: first.decisions }, { user_id: THIRD, decision: 'rejected', comment: 'no', values: {}, at: 't2' }).status).toBe('rejected');
    expect(outcomeOf({ id: two.id, status: 'timed_out', decisions: first.decisions })).toMatchObject({ decision: 'timed_out', comment: null, form: {} });
  });

  test("form values: required to approve, typed, choices among options, no undeclared field; a rejection needs none", () => {
    const form = [
      { name: 'amount', type: 'number' as const, required: true },
      { name: 'center', type: 'choice' as const, options: ['a', 'b'], required: false },
      { name: 'urgent', type: 'boolean' as const, required: false },
      { name: 'note', type: 'string' as const, required: false },
    ];
    expect(formValueProblems(form, { center: 'c', urgent: 'yes', note: 5, extra: 1 }, 'approved')).toEqual([
      { path: 'body.values.extra', problem: expect.stringContaining('not a field') },
      { path: 'body.values.amount', problem: 'required to approve' },
      { path: 'body.values.center', problem: 'one of "a", "b"' },
      { path: 'body.values.urgent', problem: 'true or false' },
      { path: 'body.values.note', problem: 'a text of at most 4000 characters' },
    ]);
    expect(formValueProblems(form, {}, 'rejected')).toEqual([]);
    expect(formValueProblems(form, { amount: 12.5, center: 'b', urgent: true, note: 'fine' }, 'approved')).toEqual([]);
  });
});
