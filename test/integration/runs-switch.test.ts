import type { TestApi } from '../helpers/stack';
import { startApiWithTenant } from '../helpers/tenants';
import { runToEnd, toolNode } from '../helpers/runs';

/**
 * The switch node (docs/workflows.md#switch): many branches by a value or by ordered conditions, with a default;
 * the branches not taken are skipped and their skips propagate, through the real API, worker and Temporal.
 */

let api: TestApi;
let token: string;

beforeAll(async () => {
  ({ api, token } = await startApiWithTenant());
});
afterAll(() => api.close());

const say = (id: string, text: string) => toolNode(id, 'json_transform', { expression: `"${text}"`, data: null });

async function save(dag: Record<string, unknown>, parameters: unknown[] = []) {
  return api.request('POST', '/api/v1/workflows', { token, body: { name: 'switch', parameters, dag } });
}

describe('by value', () => {
  let workflowId: string;

  beforeAll(async () => {
    const saved = await save(
      {
        nodes: [
          {
            id: 'route',
            type: 'switch',
            config: {
              value: 'params.region',
              cases: [
                { equals: 'eu', next: 'eu' },
                { equals: 'us', next: 'us' },
                { equals: 'uk', next: 'eu' },
              ],
              default: 'elsewhere',
            },
          },
          say('eu', 'eu'),
          say('us', 'us'),
          say('elsewhere', 'elsewhere'),
          say('after_us', 'after us'),
          toolNode('report', 'json_transform', { expression: '"branch " & $', data: '${nodes.route.branch}' }),
        ],
        edges: [
          { from: 'us', to: 'after_us' },
          { from: 'eu', to: 'report' },
          { from: 'after_us', to: 'report' },
          { from: 'elsewhere', to: 'report' },
        ],
      },
      [{ name: 'region', type: 'string', required: true }],
    );
    expect(saved.status).toBe(201);
    workflowId = saved.body.id;
  });

  test('the matching case runs; the other targets and what only they lead to are skipped; a join after runs', async () => {
    const run = await runToEnd(api, token, workflowId, { region: 'us' });
    expect(run.errors).toEqual([]);
    expect(run.status).toBe('completed');
    expect(run.node_states.route.output).toEqual({ branch: 'us', case: 1 });
    expect(run.node_states.us.status).toBe('completed');
    expect(run.node_states.after_us.status).toBe('completed');
    for (const id of ['eu', 'elsewhere']) expect(run.node_states[id].status).toBe('skipped');
    expect(run.node_states.report.output).toEqual({ result: 'branch us' });
  });

  test('two cases may share a target; the first match wins', async () => {
    const run = await runToEnd(api, token, workflowId, { region: 'uk' });
    expect(run.node_states.route.output).toEqual({ branch: 'eu', case: 2 });
    expect(run.node_states.eu.status).toBe('completed');
    for (const id of ['us', 'after_us', 'elsewhere']) expect(run.node_states[id].status).toBe('skipped');
  });

  test('no match takes the default', async () => {
    const run = await runToEnd(api, token, workflowId, { region: 'mars' });
    expect(run.node_states.route.output).toEqual({ branch: 'elsewhere', case: null });
    expect(run.node_states.elsewhere.status).toBe('completed');
    for (const id of ['eu', 'us', 'after_us']) expect(run.node_states[id].status).toBe('skipped');
    expect(run.node_states.report.output).toEqual({ result: 'branch elsewhere' });
  });
});

describe('by ordered conditions', () => {
  test('the first true condition wins, on earlier outputs; without a default and a match, every branch is skipped', async () => {
    const saved = await save(
      {
        nodes: [
          toolNode('amount', 'json_transform', { expression: '$ * 10', data: '${params.n}' }),
          {
            id: 'size',
            type: 'switch',
            config: {
              cases: [
                { when: 'nodes.amount.result >= 1000', next: 'huge' },
                { when: '${nodes.amount.result >= 100}', next: 'big' },
                { when: 'nodes.amount.result >= 10', next: 'small' },
              ],
            },
          },
          say('huge', 'huge'),
          say('big', 'big'),
          say('small', 'small'),
        ],
        edges: [{ from: 'amount', to: 'size' }],
      },
      [{ name: 'n', type: 'integer', required: true }],
    );
    expect(saved.status).toBe(201);
    const big = await runToEnd(api, token, saved.body.id, { n: 50 });
    expect(big.status).toBe('completed');
    expect(big.node_states.size.output).toEqual({ branch: 'big', case: 1 });
    expect(big.node_states.big.status).toBe('completed');
    expect([big.node_states.huge.status, big.node_states.small.status]).toEqual(['skipped', 'skipped']);

    const none = await runToEnd(api, token, saved.body.id, { n: 0 });
    expect(none.status).toBe('completed');
    expect(none.node_states.size.output).toEqual({ branch: null, case: null });
    for (const id of ['huge', 'big', 'small']) expect(none.node_states[id].status).toBe('skipped');
  });

  test('a case that does not yield a boolean fails the switch with EXPRESSION_ERROR', async () => {
    const saved = await save({
      nodes: [{ id: 'pick', type: 'switch', config: { cases: [{ when: '"yes"', next: 'a' }] } }, say('a', 'a')],
      edges: [],
    });
    expect(saved.status).toBe(201);
    const run = await runToEnd(api, token, saved.body.id);
    expect(run.status).toBe('failed');
    expect(run.node_states.pick.error).toMatchObject({ code: 'EXPRESSION_ERROR', message: expect.stringContaining('switch case 0 must yield a boolean') });
    expect(run.node_states.a.status).toBe('skipped');
  });
});

test('a switch is checked at save: mode, targets, expressions and references, every problem at its path', async () => {
  const saved = await save({
    nodes: [
      {
        id: 'pick',
        type: 'switch',
        config: {
          value: 'nodes.ghost.result',
          cases: [{ equals: 1, next: 'a' }, { when: 'true', next: 'pick' }, { equals: 3, next: 'nowhere' }],
          default: 'a',
        },
      },
      say('a', 'a'),
    ],
    edges: [],
  });
  expect(saved.status).toBe(422);
  expect(saved.body.error.code).toBe('WORKFLOW_INVALID');
  const paths = (saved.body.error.details as { path: string }[]).map((d) => d.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'dag.nodes.pick.config.cases[1].equals',
      'dag.nodes.pick.config.cases[1].when',
      'dag.nodes.pick.config.cases[1].next',
      'dag.nodes.pick.config.cases[2].next',
      'dag.nodes.pick.config.value',
    ]),
  );
  const empty = await save({ nodes: [{ id: 'pick', type: 'switch', config: { cases: [] } }], edges: [] });
  expect(empty.status).toBe(422);
  expect((empty.body.error.details as { path: string }[]).map((d) => d.path)).toContain('dag.nodes.pick.config.cases');
});
