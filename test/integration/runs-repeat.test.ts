import type { TestApi } from '../helpers/stack';
import { startApiWithTenant } from '../helpers/tenants';
import { runToEnd } from '../helpers/runs';

/**
 * The repeat node (docs/workflows.md#repeat): a template run again while (or until) a condition holds, each
 * iteration seeing the previous output as `last`, at most max_iterations times; through the real stack.
 */

let api: TestApi;
let token: string;

beforeAll(async () => {
  ({ api, token } = await startApiWithTenant());
});
afterAll(() => api.close());

/** One more than the last iteration's result (0 before the first). */
const counter = { type: 'tool', config: { tool: 'json_transform', config: { expression: '$ + 1', data: '${last == null ? 0 : last.result}' } } };

async function save(config: Record<string, unknown>): Promise<{ status: number; id: string; body: { error?: { details: { path: string }[] } } }> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token,
    body: { name: 'repeat', dag: { nodes: [{ id: 'again', type: 'repeat', config }], edges: [] } },
  });
  return { status: res.status, id: res.body.id, body: res.body };
}

test('until: iterations run until the condition over the last output holds', async () => {
  const saved = await save({ template: counter, until: 'last.result >= 5' });
  expect(saved.status).toBe(201);
  const run = await runToEnd(api, token, saved.id);
  expect(run.status).toBe('completed');
  expect(run.node_states.again.output).toEqual({ last: { result: 5 }, count: 5, exhausted: false });
});

test('while: checked before each iteration, null before the first', async () => {
  const saved = await save({ template: counter, while: 'last == null || last.result < 3' });
  const run = await runToEnd(api, token, saved.id);
  expect(run.node_states.again.output).toEqual({ last: { result: 3 }, count: 3, exhausted: false });
  const never = await runToEnd(api, token, (await save({ template: counter, while: 'false' })).id);
  expect(never.node_states.again.output).toEqual({ last: null, count: 0, exhausted: false });
});

test('max_iterations ends it, exhausted; a failed iteration fails the node and names it', async () => {
  const capped = await runToEnd(api, token, (await save({ template: counter, until: 'false', max_iterations: 4 })).id);
  expect(capped.node_states.again.output).toEqual({ last: { result: 4 }, count: 4, exhausted: true });

  const failing = { type: 'tool', config: { tool: 'json_transform', config: { expression: '$ = 2 ? $error("two") : $ + 1', data: '${last == null ? 0 : last.result}' } } };
  const failed = await runToEnd(api, token, (await save({ template: failing, until: 'false' })).id);
  expect(failed.status).toBe('failed');
  expect(failed.node_states.again.error).toMatchObject({ code: 'TRANSFORM_FAILED', message: expect.stringMatching(/^iteration 2: /) });
});

test('a repeat is checked at save', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ template: counter }, 'dag.nodes.again.config'],
    [{ template: counter, while: 'true', until: 'true' }, 'dag.nodes.again.config'],
    [{ template: counter, until: 'last.result >' }, 'dag.nodes.again.config.until'],
    [{ template: counter, until: 'ghost.result > 1' }, 'dag.nodes.again.config.until'],
    [{ template: { type: 'tool', config: { tool: 'teleport' } }, until: 'true' }, 'dag.nodes.again.config.template.config.tool'],
    [{ template: counter, until: 'true', max_iterations: 5000 }, 'dag.nodes.again.config.max_iterations'],
  ];
  for (const [config, path] of cases) {
    const res = await save(config);
    expect(res.status).toBe(422);
    expect(res.body.error!.details.map((d) => d.path)).toContain(path);
  }
});
