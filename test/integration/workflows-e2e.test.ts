import { runToEnd, useRunApi } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import type { TestTenant } from '../helpers/tenants';

/**
 * A workflow authored as a YAML definition document through POST /api/v1/workflows, then run to the end: a
 * condition, a parallel block, a loop over a parameter, and a failing tool replaced by its fallback. Proves that
 * what validation accepts, the interpreter runs.
 */

let api: TestApi;
let tenant: TestTenant;

useRunApi((started) => ({ api, tenant } = started));

const document = `
name: Order pipeline
version: "1.0"
parameters:
  - { name: orders, type: array, required: true }
  - { name: threshold, type: number, default: 10 }
nodes:
  - id: total
    type: tool
    tool: json_transform
    inputs: { expression: "$sum(price)", data: "\${params.orders}" }
  - id: big
    type: condition
    expression: "total.result > params.threshold"
    true_branch: fanout
    false_branch: small
    depends_on: [total]
  - id: fanout
    type: parallel
    branches:
      - { id: left, nodes: [tax] }
      - { id: right, nodes: [flaky] }
    join_strategy: wait_all
  - id: tax
    type: tool
    tool: json_transform
    inputs: { expression: "$ * 0.2", data: "\${total.result}" }
  - id: flaky
    type: tool
    tool: fail
    config: { mode: non_retryable, code: UPSTREAM_DOWN }
  - id: cached
    type: tool
    tool: json_transform
    config: { expression: "'from cache'" }
  - id: small
    type: tool
    tool: json_transform
    config: { expression: "'small order'" }
  - id: lines
    type: loop
    items: params.orders
    iterator: order
    concurrency: 2
    template:
      type: tool
      config: { tool: json_transform, config: { expression: "name & '#' & $string(price)", data: "\${order}" } }
    depends_on: [fanout, small]
error_handling:
  default_strategy: retry
  retry_config: { max_attempts: 2, backoff: fixed, initial_delay: 50 }
  node_overrides:
    flaky: { strategy: fallback, handler: json_transform, handler_config: { expression: "'fallback value'" } }
`;

test('a YAML document with condition, parallel, loop and fallback validates and runs', async () => {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    rawBody: document,
    headers: { 'content-type': 'application/yaml' },
  });
  expect(created.status).toBe(201);
  expect(created.body.dag.entryPoints).toEqual(['total', 'cached']);
  expect(created.body.dag.exitPoints).toEqual(['cached', 'lines']);

  const run = await runToEnd(api, tenant.owner.token, created.body.id, {
    orders: [
      { name: 'a', price: 7 },
      { name: 'b', price: 8 },
    ],
  });
  if (run.status !== 'completed') throw new Error(JSON.stringify({ errors: run.errors, states: run.node_states }, null, 1));
  const states = run.node_states;
  expect(states.total.output).toEqual({ result: 15 });
  expect(states.big.output).toEqual({ result: true, branch: 'fanout' });
  expect(states.small.status).toBe('skipped');
  expect(states.tax.output).toEqual({ result: 3 });
  expect(states.flaky).toMatchObject({ status: 'completed', via: 'fallback', output: { result: 'fallback value' } });
  expect(states.fanout.status).toBe('completed');
  expect(states.lines.output).toEqual({ results: [{ result: 'a#7' }, { result: 'b#8' }], count: 2 });
  expect(run.results.lines).toEqual(states.lines.output);
});
