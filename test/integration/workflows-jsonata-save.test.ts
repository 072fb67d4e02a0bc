import { toolNode } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant } from '../helpers/tenants';

/**
 * JSONata is parsed at save (docs/workflows.md#validation): a syntax error is refused by save, validate and tool
 * test with the field's path and the position, instead of failing the run. Long expressions are parsed in the
 * validation thread, with the same answer.
 */

let api: TestApi;
let token: string;

beforeAll(async () => {
  ({ api, token } = await startApiWithTenant());
});
afterAll(() => api.close());

const definition = (expressions: string[]) => ({
  name: 'jsonata at save',
  parameters: [{ name: 'k', type: 'number', default: 2 }],
  dag: { nodes: expressions.map((expression, i) => toolNode(`t${i}`, 'json_transform', { expression, data: { price: 1 } })), edges: [] },
});

test('save and validate refuse a syntax error with its path and position; a good expression saves', async () => {
  for (const path of ['/api/v1/workflows', '/api/v1/workflows/validate']) {
    const res = await api.request('POST', path, { token, body: definition(['$sum(price)', '{ "a": $sum(price }']) });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ path: 'dag.nodes.t1.config.config.expression', problem: 'invalid JSONata at character 19: Expected ")", got "}"' }]);
  }
  const regex = await api.request('POST', '/api/v1/workflows/validate', { token, body: definition(['$match("aa", /(a)\\1/)']) });
  expect(regex.status).toBe(422);
  expect(regex.body.error.details[0].problem).toMatch(/RE2/);
  // A template is rendered at run time: not parsed at save.
  expect((await api.request('POST', '/api/v1/workflows', { token, body: definition(['$sum(price) * ${params.k}']) })).status).toBe(201);
});

test('tool test refuses it the same way', async () => {
  const res = await api.request('POST', '/api/v1/tools/json_transform/test', { token, body: { config: { expression: '$string(', data: {} } } });
  expect(res.status).toBe(422);
  expect(res.body.error.code).toBe('TOOL_INPUT_INVALID');
  expect(res.body.error.details[0]).toMatchObject({ path: 'body.config.expression', problem: expect.stringContaining('invalid JSONata') });
});

test('a definition with long expressions is parsed off the loop, with the same answer', async () => {
  const long = `"${'x'.repeat(9000)}"`;
  const res = await api.request('POST', '/api/v1/workflows/validate', { token, body: definition([long, long, long, long, `${long} & $string(`]) });
  expect(res.status).toBe(422);
  expect(res.body.error.details).toEqual([{ path: 'dag.nodes.t4.config.config.expression', problem: expect.stringContaining('invalid JSONata at character') }]);
});
