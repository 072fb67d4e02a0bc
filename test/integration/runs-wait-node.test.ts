import type { TestApi } from '../helpers/stack';
import { startApiWithTenant } from '../helpers/tenants';
import { runToEnd, startRun, toolNode, waitForRun } from '../helpers/runs';

/**
 * The wait node (docs/workflows.md#wait): a durable timer inside a run, for a duration or until a time that is fixed
 * or computed from parameters and earlier outputs; visible while it waits, cancellable, checked at save. Worker and
 * Temporal restarts during a wait: test/integration/faults/worker-temporal.test.ts.
 */

let api: TestApi;
let token: string;

beforeAll(async () => {
  ({ api, token } = await startApiWithTenant());
});
afterAll(() => api.close());

const after = toolNode('after', 'json_transform', { expression: '"done"', data: null });

async function saved(nodes: unknown[], parameters: unknown[] = []): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token,
    body: { name: 'wait', parameters, dag: { nodes: [...nodes, after], edges: [{ from: (nodes[0] as { id: string }).id, to: 'after' }] } },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const gap = (run: { node_states: Record<string, { startedAt: string }> }, from: string, to: string): number =>
  Date.parse(run.node_states[to]!.startedAt) - Date.parse(run.node_states[from]!.startedAt);

test('a duration holds its successors back for that long; the output says until when and how long', async () => {
  const workflowId = await saved([{ id: 'pause', type: 'wait', config: { duration: '2s' } }]);
  const run = await runToEnd(api, token, workflowId);
  expect(run.status).toBe('completed');
  expect(run.node_states.pause.output).toMatchObject({ waited_ms: 2000, until: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  expect(run.node_states.pause.waiting_until).toBe(run.node_states.pause.output.until);
  expect(gap(run, 'pause', 'after')).toBeGreaterThanOrEqual(2000);
});

test('until from a parameter: an ISO time ahead is waited for, epoch milliseconds too, a time past goes on at once', async () => {
  const workflowId = await saved([{ id: 'pause', type: 'wait', config: { until: '${params.at}' } }], [{ name: 'at', type: 'string', required: true }]);
  const byEpoch = await saved([{ id: 'pause', type: 'wait', config: { until: '${params.at}' } }], [{ name: 'at', type: 'integer', required: true }]);
  const ahead = new Date(Date.now() + 1500).toISOString();
  const iso = await runToEnd(api, token, workflowId, { at: ahead });
  expect(iso.status).toBe('completed');
  expect(iso.node_states.pause.output.until).toBe(ahead);
  expect(iso.node_states.pause.output.waited_ms).toBeGreaterThan(0);
  expect(Date.parse(iso.node_states.after.startedAt)).toBeGreaterThanOrEqual(Date.parse(ahead));

  const epoch = Date.now() + 1200;
  const millis = await runToEnd(api, token, byEpoch, { at: epoch });
  expect(millis.node_states.pause.output.until).toBe(new Date(epoch).toISOString());

  const past = await runToEnd(api, token, workflowId, { at: '2020-01-01T00:00:00Z' });
  expect(past.status).toBe('completed');
  expect(past.node_states.pause.output).toEqual({ until: '2020-01-01T00:00:00.000Z', waited_ms: 0 });

  const bad = await runToEnd(api, token, workflowId, { at: 'soon' });
  expect(bad.status).toBe('failed');
  expect(bad.node_states.pause.error).toMatchObject({ code: 'WAIT_UNTIL_INVALID', message: expect.stringContaining('"soon"') });
  expect(bad.node_states.after.status).toBe('skipped');

  const far = await runToEnd(api, token, workflowId, { at: '2999-01-01T00:00:00Z' });
  expect(far.node_states.pause.error).toMatchObject({ code: 'WAIT_TOO_LONG' });
});

test('a waiting run shows where it waits and is cancelled at once', async () => {
  const workflowId = await saved([{ id: 'pause', type: 'wait', config: { duration: '10m' } }]);
  const started = await startRun(api, token, workflowId);
  let waiting: { status: string; waiting_until?: string } | undefined;
  const deadline = Date.now() + 15_000;
  while (!waiting?.waiting_until && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    waiting = (await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${started.id}`, { token })).body.node_states?.pause;
  }
  expect(waiting).toMatchObject({ status: 'running' });
  expect(Date.parse(waiting!.waiting_until!) - Date.now()).toBeGreaterThan(9 * 60_000);
  // the run picture says it too
  const picture = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${started.id}/picture.json`, { token });
  expect(picture.body.nodes.pause.waiting).toEqual({ until: waiting!.waiting_until, text: expect.stringMatching(/^waits until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/) });
  const asked = Date.now();
  const cancelled = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token });
  expect(cancelled.status).toBe(200);
  const run = await waitForRun(api, token, workflowId, started.id);
  expect(run.status).toBe('cancelled');
  expect(run.node_states.pause.status).toBe('cancelled');
  expect(run.node_states.after.status).not.toBe('completed');
  expect(Date.now() - asked).toBeLessThan(10_000);
});

test('a wait is checked at save: one of duration or until, a real duration, a real time, known references', async () => {
  const check = async (config: Record<string, unknown>) =>
    api.request('POST', '/api/v1/workflows', { token, body: { name: 'bad wait', dag: { nodes: [{ id: 'w', type: 'wait', config }], edges: [] } } });
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{}, 'dag.nodes.w.config', /one of duration .* or until/],
    [{ duration: '5m', until: '2030-01-01T00:00:00Z' }, 'dag.nodes.w.config', /one of duration/],
    [{ duration: 'forever' }, 'dag.nodes.w.config.duration', /not a duration/],
    [{ duration: '400d' }, 'dag.nodes.w.config.duration', /at most 366d/],
    [{ until: 'next tuesday' }, 'dag.nodes.w.config.until', /ISO 8601/],
    [{ until: '${nodes.ghost.result}' }, 'dag.nodes.w.config.until', /ghost/],
  ];
  for (const [config, path, problem] of cases) {
    const res = await check(config);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path, problem: expect.stringMatching(problem) })]));
  }
});
