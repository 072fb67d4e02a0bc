import type { TestApi } from '../helpers/stack';
import { createTestTenant, startApiWithTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, startRun, toolNode, waitForRun } from '../helpers/runs';

/**
 * Organizations share the worker's task queue. With task queue fairness (scripts/services) and each organization's
 * id as the fairness key of its executions (lib/tenantPriority.ts), the server dispatches their tasks in turn:
 * another organization's activity does not wait behind one organization's backlog. Compared by order of start
 * (the activities' start events), not by time.
 */

let api: TestApi;
let flooder: TestTenant;
let token: string;

beforeAll(async () => {
  ({ api, tenant: flooder, token } = await startApiWithTenant({ RUN_HEARTBEAT_TIMEOUT: '3s' }));
});
afterAll(async () => {
  await api?.close();
});

/** Start times (ms) of a run's activities, from their ActivityTaskStarted events. */
async function activityStarts(runId: string): Promise<number[]> {
  const history = await api.deps.temporal.workflow.getHandle(runId).fetchHistory();
  return (history.events ?? [])
    .filter((event) => event.activityTaskStartedEventAttributes)
    .map((event) => Number(event.eventTime!.seconds) * 1000 + Math.floor((event.eventTime!.nanos ?? 0) / 1e6));
}

/** Activities the run has scheduled so far (ActivityTaskScheduled events). */
async function activitiesScheduled(runId: string): Promise<number> {
  const history = await api.deps.temporal.workflow.getHandle(runId).fetchHistory();
  return (history.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes).length;
}

test("one organization's backlog of 300 activities does not hold another's activity behind it", async () => {
  // 300 activities of 2 s from one organization: three times what the worker runs at once (100), so they start in
  // three waves, 2 s apart, and the other organization's activity arrives during the first.
  const fanOut = await createWorkflowFixture(api, flooder, {
    nodes: Array.from({ length: 150 }, (_, i) => toolNode(`d${i}`, 'delay', { ms: 2000 })),
  });
  const flood = [await startRun(api, token, fanOut, {}), await startRun(api, token, fanOut, {})];
  // Both runs have scheduled their 150 activities each before the other organization's run starts.
  for (const run of flood) {
    while ((await activitiesScheduled(run.id)) < 150) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const other = await createTestTenant(api);
  const single = await createWorkflowFixture(api, other, { nodes: [toolNode('one', 'delay', { ms: 0 })] });
  const lone = await startRun(api, other.owner.token, single, {});
  expect((await waitForRun(api, other.owner.token, single, lone.id)).status).toBe('completed');
  for (const run of flood) expect((await waitForRun(api, token, fanOut, run.id)).status).toBe('completed');

  const [loneStart] = await activityStarts(lone.id);
  const floodStarts = (await Promise.all(flood.map((run) => activityStarts(run.id)))).flat();
  expect(floodStarts).toHaveLength(300);
  // First come first served, the lone activity started after all 300 (none later). Dispatched in turn, it started
  // at the first free slot, ahead of the next waves (about 200).
  const startedLater = floodStarts.filter((time) => time > loneStart!).length;
  expect(startedLater).toBeGreaterThanOrEqual(50);
});
