import type { TestApi } from '../helpers/stack';
import { startApiWithTenant } from '../helpers/tenants';
import { runToEnd, toolNode } from '../helpers/runs';

/**
 * `parameters` is an alias of `params` wherever a parameter is named (lib/dag/parameterRoots.ts). Regression: a
 * `from: 'parameters.x'` input was accepted at save and then failed every run with MISSING_INPUT, because the
 * run-time resolution knew only `params`.
 */

let api: TestApi;
let token: string;

beforeAll(async () => {
  ({ api, token } = await startApiWithTenant());
});
afterAll(() => api.close());

test('a workflow saved with parameters.x in a from input and a loop items runs with the parameter values', async () => {
  const saved = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'parameters alias',
      parameters: [
        { name: 'x', type: 'integer', required: true },
        { name: 'list', type: 'array', required: true },
      ],
      dag: {
        nodes: [
          toolNode('double', 'json_transform', { expression: '$ * 2' }, { inputs: [{ name: 'data', from: 'parameters.x' }] }),
          {
            id: 'each',
            type: 'loop',
            config: {
              items: 'parameters.list',
              iterator: 'n',
              template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '$ + 1', data: '${n}' } } },
            },
          },
        ],
        edges: [],
      },
    },
  });
  expect(saved.status).toBe(201);
  const run = await runToEnd(api, token, saved.body.id, { x: 21, list: [1, 2] });
  expect(run.errors).toEqual([]);
  expect(run.status).toBe('completed');
  expect(run.node_states.double).toMatchObject({ status: 'completed', output: { result: 42 } });
  expect(run.node_states.each).toMatchObject({ status: 'completed', output: { count: 2, results: [{ result: 2 }, { result: 3 }] } });
});
