import type { WorkflowHandle } from '@temporalio/client';
import type { TestApi } from '../helpers/stack';
import type { TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, runToEnd, startRun, toolNode, waitForRun, type RunBody, useRunApi } from '../helpers/runs';

/**
 * Retry delays under a second are honoured, against the real Temporal dev server (docs/runs.md#sub-second-retry-delays).
 *
 * The server moves any timer due within about a second of its timer queue's last read to just past that read
 * (history.timerProcessorMaxTimeShift, 1 s): Temporal's own activity retries with a 300 ms interval, like a 300 ms
 * workflow `sleep`, came out at ~1.05 s each. The interpreter now makes one activity call per attempt for such
 * nodes and the next attempt's activity waits the delay in the worker; delays of a second or more stay durable timers.
 *
 * Timing bounds are loose on purpose (a 2-core machine under load): each wait is at least its delay, and three
 * 300 ms waits together take well under the ~3.1 s the server's floor made of them. The structure of the history
 * (no timer for a sub-second delay, one timer for the long one) is asserted exactly.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started));

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);

async function historyOf(runId: string): Promise<HistoryEvent[]> {
  return (await api.deps.temporal.workflow.getHandle(runId).fetchHistory()).events ?? [];
}

/** Times (ms) at which the attempts of tool `fail` ended, failed or completed, in order. */
function attemptEnds(events: HistoryEvent[]): number[] {
  const failOf = new Set(
    events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fail').map((e) => String(e.eventId)),
  );
  return events
    .filter((e) => {
      const scheduled = e.activityTaskFailedEventAttributes?.scheduledEventId ?? e.activityTaskCompletedEventAttributes?.scheduledEventId;
      return scheduled !== undefined && scheduled !== null && failOf.has(String(scheduled));
    })
    .map((e) => ms(e.eventTime));
}

const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);
const timers = (events: HistoryEvent[]): number[] =>
  events.filter((e) => e.timerStartedEventAttributes).map((e) => ms(e.timerStartedEventAttributes!.startToFireTimeout));

test('a fixed 300 ms delay is waited ~300 ms, not the server timer floor of ~1 s', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('flaky', 'fail', { mode: 'times', times: 3 })],
    errorHandling: { retry_config: { max_attempts: 4, backoff: 'fixed', initial_delay: 300 } },
  });
  const run = await runToEnd(api, token, workflowId);
  expect(run.status).toBe('completed');
  expect(run.node_states.flaky).toMatchObject({ status: 'completed', attempts: 4, output: { attempt: 4 } });
  const events = await historyOf(run.id);
  // one activity call per attempt, no server timer between them; the waits are in the next attempt's input
  const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fail');
  expect(scheduled).toHaveLength(4);
  expect(scheduled.every((e) => e.activityTaskScheduledEventAttributes!.retryPolicy!.maximumAttempts === 1)).toBe(true);
  expect(timers(events)).toEqual([]);
  const waits = gaps(attemptEnds(events));
  expect(waits).toHaveLength(3);
  for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(290);
  // the server's floor made these 3 × ~1,050 ms
  expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(2400);
});

test('exponential from 300 ms: 300 and 600 ms waited by the worker, 1,200 ms by a durable timer', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [{ ...(toolNode('flaky', 'fail', { mode: 'times', times: 3 }) as object), retryPolicy: { max_attempts: 4, backoff: 'exponential', initial_delay: 300 } }],
  });
  const run = await runToEnd(api, token, workflowId);
  expect(run.node_states.flaky).toMatchObject({ status: 'completed', attempts: 4 });
  const events = await historyOf(run.id);
  expect(timers(events)).toEqual([1200]);
  const waits = gaps(attemptEnds(events));
  expect(waits[0]).toBeGreaterThanOrEqual(290);
  expect(waits[1]).toBeGreaterThanOrEqual(590);
  expect(waits[2]).toBeGreaterThanOrEqual(1190);
  expect(waits[0]! + waits[1]!).toBeLessThan(2000);
});

test('linear from 100 ms (100, 200 ms) is honoured too', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('flaky', 'fail', { mode: 'times', times: 2 })],
    errorHandling: { retry_config: { max_attempts: 3, backoff: 'linear', initial_delay: 100 } },
  });
  const run = await runToEnd(api, token, workflowId);
  expect(run.node_states.flaky).toMatchObject({ status: 'completed', attempts: 3 });
  const events = await historyOf(run.id);
  expect(timers(events)).toEqual([]);
  const waits = gaps(attemptEnds(events));
  expect(waits[0]).toBeGreaterThanOrEqual(95);
  expect(waits[1]).toBeGreaterThanOrEqual(195);
  expect(waits[0]! + waits[1]!).toBeLessThan(1700);
});

test('delays of a second or more keep Temporal retrying the activity itself', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('flaky', 'fail', { mode: 'times', times: 1 })],
    errorHandling: { retry_config: { max_attempts: 2, backoff: 'fixed', initial_delay: 1000 } },
  });
  const run = await runToEnd(api, token, workflowId);
  expect(run.node_states.flaky).toMatchObject({ status: 'completed', attempts: 2 });
  const scheduled = (await historyOf(run.id)).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fail');
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0]!.activityTaskScheduledEventAttributes!.retryPolicy).toMatchObject({ maximumAttempts: 2, backoffCoefficient: 1 });
});

test('a node cancelled while it waits for a retry is cancelled with the attempts it made', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('flaky', 'fail', { mode: 'always' })],
    errorHandling: { retry_config: { max_attempts: 100, backoff: 'fixed', initial_delay: 900 } },
  });
  const started = await startRun(api, token, workflowId);
  // wait for two failed attempts, then cancel: the third is waiting (900 of its ~900+ ms) or running
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && attemptEnds(await historyOf(started.id)).length < 2) await new Promise((r) => setTimeout(r, 100));
  expect(attemptEnds(await historyOf(started.id)).length).toBeGreaterThanOrEqual(2);
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token });
  expect(res.status).toBe(200);
  const run: RunBody = await waitForRun(api, token, workflowId, started.id);
  expect(run.status).toBe('cancelled');
  const made = attemptEnds(await historyOf(started.id)).length;
  expect(run.node_states.flaky.status).toBe('cancelled');
  // attempts that ended (failed) plus, when the cancellation found one executing rather than waiting, that one
  expect([made, made + 1]).toContain(run.node_states.flaky.attempts);
});

test('a node cancelled in a durable retry delay reports the attempts that ended, not one', async () => {
  // Linear backoff: 2 s after the first failure, 4 s after the second, each a workflow timer (over a second).
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('flaky', 'fail', { mode: 'always' })],
    errorHandling: { retry_config: { max_attempts: 5, backoff: 'linear', initial_delay: 2000 } },
  });
  const started = await startRun(api, token, workflowId);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && attemptEnds(await historyOf(started.id)).length < 2) await new Promise((r) => setTimeout(r, 100));
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token });
  expect(res.status).toBe(200);
  const run: RunBody = await waitForRun(api, token, workflowId, started.id);
  const events = await historyOf(started.id);
  // cancelled inside the 4 s timer: two attempts ended, the third never started
  expect(attemptEnds(events)).toHaveLength(2);
  expect(events.filter((e) => e.timerCanceledEventAttributes)).toHaveLength(1);
  expect({ status: run.status, node: run.node_states.flaky.status, attempts: run.node_states.flaky.attempts }).toEqual({
    status: 'cancelled',
    node: 'cancelled',
    attempts: 2,
  });
});
