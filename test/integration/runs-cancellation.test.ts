import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, FAST_RETRY, runToEnd, startRun, toolNode, waitForRun } from '../helpers/runs';

/**
 * Cancellation reaches a busy tool promptly, with the real worker and Temporal (docs/runs.md#cancellation), and the
 * join semantics of parallel nodes (docs/runs.md#joins).
 *
 * The API runs with the default RUN_HEARTBEAT_TIMEOUT (30 s). Before WORKER_HEARTBEAT_THROTTLE, the SDK sent a
 * heartbeat every 24 s (80% of it) and a cancellation could only arrive in a heartbeat's answer, so the 20 s tools
 * below ran to their end and were recorded `completed`. The assertions are on states, not on durations: a tool that
 * is recorded `cancelled` was stopped well before its 20 s were up.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  ({ api, tenant, token } = await startApiWithTenant({ RUN_HEARTBEAT_TIMEOUT: '30s' }));
});
afterAll(() => api.close());

const BUSY_MS = 20_000;
const busy = (id: string) => toolNode(id, 'delay', { ms: BUSY_MS, value: id });
const quick = (id: string, value: unknown = id) => toolNode(id, 'json_transform', { expression: '$', data: value });
const broken = (id: string, code = 'BROKEN') => toolNode(id, 'fail', { mode: 'non_retryable', code });

/** Waits until the run's `delay` activity runs in the worker and has heartbeated (not only been scheduled). */
async function untilHeartbeating(runId: string): Promise<void> {
  const handle = api.deps.temporal.workflow.getHandle(runId);
  for (;;) {
    const description = await handle.describe();
    const pending = description.raw.pendingActivities ?? [];
    if (pending.some((a) => a.activityType?.name === 'delay' && a.lastStartedTime && a.heartbeatDetails)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('cancel', () => {
  test('a busy tool is cancelled, not run to its end; the answer shows cancelled or cancelling, then cancelled', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [quick('first'), busy('wait'), quick('never')],
      edges: [
        { from: 'first', to: 'wait' },
        { from: 'wait', to: 'never' },
      ],
    });
    const started = await startRun(api, token, workflowId);
    await waitForRun(api, token, workflowId, started.id, (r) => r.node_states?.wait?.status === 'running');
    await untilHeartbeating(started.id);

    const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token });
    expect(res.status).toBe(200);
    // Never `running`: the answer waits at most 0.8 s, then shows the transitional state.
    expect(['cancelled', 'cancelling']).toContain(res.body.status);
    const run = await waitForRun(api, token, workflowId, started.id);
    expect(run.status).toBe('cancelled');
    // stopped by its cancellation (a tool run to its end would be `completed`), with its real attempt
    expect(run.node_states.wait).toMatchObject({ status: 'cancelled', attempts: 1 });
    expect(run.node_states.never.status).toBe('cancelled');
    const history = await api.deps.temporal.workflow.getHandle(started.id).fetchHistory();
    expect(history.events!.some((e) => e.activityTaskCanceledEventAttributes)).toBe(true);
  });
});

describe('fail_fast', () => {
  test('the first failure cancels a busy sibling at once: recorded cancelled, not completed', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [busy('slow'), toolNode('late', 'delay', { ms: 500 }), broken('bad'), quick('after')],
      edges: [
        { from: 'late', to: 'bad' },
        { from: 'slow', to: 'after' },
      ],
      errorHandling: { default_strategy: 'fail_fast', retry_config: FAST_RETRY },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.bad).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'BROKEN' } });
    expect(run.node_states.slow).toMatchObject({ status: 'cancelled', attempts: 1 });
    expect(run.node_states.after.status).toBe('cancelled');
    expect(run.errors).toEqual([expect.objectContaining({ node: 'bad', code: 'BROKEN' })]);
  });
});

describe('joins', () => {
  const fan = (joinStrategy: string, branches: Record<string, string | string[]>, n?: number) => ({
    id: 'fan',
    type: 'parallel',
    config: {
      joinStrategy,
      ...(n ? { n } : {}),
      branches: Object.entries(branches).map(([id, members]) => ({ id, nodes: [members].flat() })),
    },
  });

  test('wait_any: the loser still running at the join is cancelled at once and recorded with its attempt', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [fan('wait_any', { fast: 'fast_a', slow: 'slow_a' }), toolNode('fast_a', 'delay', { ms: 300, value: 'fast' }), busy('slow_a'), quick('after')],
      edges: [{ from: 'fan', to: 'after' }],
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('completed');
    expect(run.node_states.fan.output.completed).toEqual(['fast']);
    expect(run.node_states.slow_a).toMatchObject({ status: 'cancelled', attempts: 1 });
    expect(run.node_states.after.status).toBe('completed');
  });

  test('wait_n (2 of 3): the third branch, still busy at the join, is cancelled, not completed', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [
        fan('wait_n', { a: 'a1', b: 'b1', c: 'c1' }, 2),
        toolNode('a1', 'delay', { ms: 100 }),
        toolNode('b1', 'delay', { ms: 300 }),
        busy('c1'),
        quick('after'),
      ],
      edges: [{ from: 'fan', to: 'after' }],
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('completed');
    expect(run.node_states.fan.output.completed.sort()).toEqual(['a', 'b']);
    expect(run.node_states.c1).toMatchObject({ status: 'cancelled', attempts: 1 });
  });

  test('wait_any with one branch succeeding and one failing completes the run; the failure stays recorded', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [fan('wait_any', { good: 'good_a', bad: 'bad_a' }), toolNode('good_a', 'delay', { ms: 500, value: 'good' }), broken('bad_a'), quick('after')],
      edges: [{ from: 'fan', to: 'after' }],
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('completed');
    expect(run.node_states.bad_a).toMatchObject({ status: 'failed', error: { code: 'BROKEN' } });
    expect(run.node_states.fan.status).toBe('completed');
    expect(run.node_states.fan.output.completed).toEqual(['good']);
    expect(run.node_states.after.status).toBe('completed');
    expect(run.errors).toEqual([expect.objectContaining({ node: 'bad_a', code: 'BROKEN' })]);
    expect(run.results.after).toEqual({ result: 'after' });
  });

  test('an unmet join is in errors[] with its own code, after the branch failures', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [
        fan('wait_n', { a: 'a1', b: 'b1', c: ['c1', 'c2'] }, 2),
        quick('a1'),
        broken('b1', 'B_DOWN'),
        toolNode('c1', 'delay', { ms: 300 }),
        broken('c2', 'C_DOWN'),
        quick('after'),
      ],
      edges: [
        { from: 'c1', to: 'c2' },
        { from: 'fan', to: 'after' },
      ],
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.fan).toMatchObject({ status: 'failed', error: { code: 'JOIN_FAILED' } });
    expect(run.node_states.after.status).toBe('skipped');
    expect(run.errors.map((e: { node: string; code: string }) => [e.node, e.code])).toEqual([
      ['b1', 'B_DOWN'],
      ['c2', 'C_DOWN'],
      ['fan', 'JOIN_FAILED'],
    ]);
  });
});
