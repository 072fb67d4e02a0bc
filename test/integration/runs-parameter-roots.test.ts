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

test('an optional parameter the run was not given reads as null (a default as the default), wherever it is read', async () => {
  const saved = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'optional parameters',
      parameters: [
        { name: 'opt', type: 'string', required: false },
        { name: 'level', type: 'integer', required: false, default: 3 },
      ],
      dag: {
        nodes: [
          toolNode('echo', 'json_transform', { expression: '$', data: { opt: '${params.opt}', level: '${params.level}' } }),
          { id: 'check', type: 'condition', config: { expression: 'params.opt == null', trueBranch: 'absent', falseBranch: 'present' } },
          toolNode('absent', 'json_transform', { expression: '"absent"', data: null }),
          toolNode('present', 'json_transform', { expression: '"present"', data: null }),
          toolNode('bound', 'json_transform', { expression: '$'}, { inputs: [{ name: 'data', from: 'params.opt' }] }),
        ],
        edges: [],
      },
    },
  });
  expect(saved.status).toBe(201);
  const run = await runToEnd(api, token, saved.body.id, {});
  expect(run.errors).toEqual([]);
  expect(run.status).toBe('completed');
  expect(run.node_states.echo.output).toEqual({ result: { opt: null, level: 3 } });
  expect(run.node_states.absent.status).toBe('completed');
  expect(run.node_states.present.status).toBe('skipped');
  expect(run.node_states.bound.output).toEqual({ result: null });

  const given = await runToEnd(api, token, saved.body.id, { opt: 'x' });
  expect(given.node_states.echo.output).toEqual({ result: { opt: 'x', level: 3 } });
  expect(given.node_states.present.status).toBe('completed');
});
