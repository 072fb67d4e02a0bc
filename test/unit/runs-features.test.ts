import { dagSchema, errorHandlingSchema, type CompiledWorkflow } from '../../lib/dag/model';
import { mayWaitForTurns } from '../../workflows/runs/features';
import { buildGraph } from '../../workflows/runs/graph';

/** Which runs ask the patch rate-limit-turns (workflows/runs/features.ts): those whose tool calls may wait for a turn. */

const LOCAL = ['json_transform', 'csv_parse'];

function asks(nodes: unknown[], errorHandling: unknown = {}): boolean {
  const dag = dagSchema.parse({ nodes });
  const handling = errorHandlingSchema.parse(errorHandling);
  const compiled: CompiledWorkflow = {
    workflowId: 'w',
    organizationId: 'o',
    version: 1,
    name: 'w',
    dag: { ...dag, entryPoints: dag.nodes.map((n) => n.id), exitPoints: dag.nodes.map((n) => n.id) },
    parameters: [],
    errorHandling: handling,
  };
  return mayWaitForTurns(handling, buildGraph(compiled), LOCAL);
}

const tool = (id: string, name: string, extra: Record<string, unknown> = {}) => ({ id, type: 'tool', config: { tool: name, config: {}, ...extra } });
const loopOf = (id: string, name: string) => ({ id, type: 'loop', config: { items: '[1]', template: { type: 'tool', config: { tool: name } } } });

test('a call of a tool that is not local may wait (the organization may limit its destination at any time)', () => {
  expect(asks([tool('a', 'http_request')])).toBe(true);
  expect(asks([loopOf('each', 'http_request')])).toBe(true);
});

test('local tools do not, unless their node declares a limit', () => {
  expect(asks([tool('a', 'json_transform'), loopOf('each', 'csv_parse')])).toBe(false);
  expect(asks([tool('a', 'json_transform', { rate_limit: { requests: 1, per: '1s', key: 'k' } })])).toBe(true);
});

test('a fallback handler named by tool is a call too', () => {
  const handled = { node_overrides: { a: { strategy: 'fallback', handler: 'http_request', handler_config: { url: 'https://a.example' } } } };
  expect(asks([tool('a', 'json_transform')], handled)).toBe(true);
  expect(asks([tool('a', 'json_transform')], { node_overrides: { a: { strategy: 'fallback', handler: 'json_transform' } } })).toBe(false);
});
