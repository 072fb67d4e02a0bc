import { parseNodeConfig, toolBindings, type TypedConfig } from '../../../lib/dag/nodeConfig';
import { nodePath } from '../../../lib/dag/problems';
import { parseReference } from '../../../lib/dag/references';
import { deriveEntryPoints, deriveExitPoints, dependencyStructure } from '../../../lib/dag/structure';
import { triggerProblems } from '../../../lib/dag/triggers';

function typed(type: TypedConfig['type'], config: Record<string, unknown>): TypedConfig {
  const r = parseNodeConfig({ type, config }, 'x');
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

describe('dependency structure', () => {
  test('condition branches are implied edges; entry and exit points derived', () => {
    const configs = new Map([['c', typed('condition', { expression: 'true', trueBranch: 't', falseBranch: 'f' })]]);
    const s = dependencyStructure(['start', 'c', 't', 'f', 'merge'], [
      { from: 'start', to: 'c' },
      { from: 't', to: 'merge' },
      { from: 'f', to: 'merge' },
    ], configs);
    expect(s.graph.successors.get('c')).toEqual(['t', 'f']);
    expect(deriveEntryPoints(s)).toEqual(['start']);
    expect(deriveExitPoints(s)).toEqual(['merge']);
  });

  test('parallel: branch nodes start with the parallel node and precede its successors', () => {
    const configs = new Map([
      ['p', typed('parallel', { branches: [{ id: 'one', nodes: ['a'] }, { id: 'two', nodes: ['b'] }] })],
    ]);
    const s = dependencyStructure(['p', 'a', 'b', 'after'], [{ from: 'p', to: 'after' }], configs);
    expect(s.graph.predecessors.get('after')!.sort()).toEqual(['a', 'b', 'p']);
    expect(s.parallelOf.get('a')).toBe('p');
    expect(deriveEntryPoints(s)).toEqual(['p']);
    expect(deriveExitPoints(s)).toEqual(['after']);
    const end = dependencyStructure(['p', 'a', 'b'], [], configs);
    expect(deriveExitPoints(end)).toEqual(['p']);
  });
});

describe('node configs', () => {
  test('defaults applied by type; problems name config fields', () => {
    expect(typed('tool', { tool: 'x' })).toEqual({ type: 'tool', config: { tool: 'x', config: {}, inputs: [], outputs: [] } });
    const bad = parseNodeConfig({ type: 'parallel', config: { branches: [], joinStrategy: 'first' } }, 'dag.nodes.p');
    expect(!bad.ok && bad.problems.map((p) => p.path).sort()).toEqual(['dag.nodes.p.config.branches', 'dag.nodes.p.config.joinStrategy']);
  });

  test('references', () => {
    expect(parseReference('fetch.body')).toEqual({ kind: 'node', nodeId: 'fetch', output: 'body' });
    expect(parseReference('params.x')).toEqual({ kind: 'param', name: 'x' });
    expect(parseReference('nope')).toBeNull();
  });
});

describe('triggers', () => {
  test('per-type config checks', () => {
    expect(triggerProblems({ type: 'schedule', config: { cron: '*/5 * * * *', timezone: 'Europe/Paris' }, enabled: true }, 't')).toEqual([]);
    expect(triggerProblems({ type: 'schedule', config: { cron: 'often', timezone: 'Mars/Base' }, enabled: true }, 't')).toEqual([
      { path: 't.config.cron', problem: 'not a cron expression (5 or 6 fields)' },
      { path: 't.config.timezone', problem: 'unknown IANA time zone "Mars/Base"' },
    ]);
    expect(triggerProblems({ type: 'event', config: {}, enabled: true }, 't').map((p) => p.path)).toEqual(['t.config.source', 't.config.event']);
    expect(triggerProblems({ type: 'webhook', config: { method: 'BREW' }, enabled: true }, 't')).toHaveLength(1);
    expect(triggerProblems({ type: 'manual', config: { approvers: ['king'] }, enabled: true }, 't')).toHaveLength(1);
  });
});

describe('small helpers', () => {
  test('nodePath names a node by id, else by index', () => {
    expect(nodePath('dag', 'a', 0)).toBe('dag.nodes.a');
    expect(nodePath('', 'a', 0)).toBe('nodes.a');
    expect(nodePath('dag', undefined, 3)).toBe('dag.nodes[3]');
  });
  test('toolBindings merges node-level and config-level inputs and outputs', () => {
    const t = typed('tool', { tool: 'x', inputs: [{ from: 'a.b' }], outputs: [{ name: 'o' }] });
    const node = { id: 'n', type: 'tool' as const, config: {}, inputs: [{ from: 'params.p' }], outputs: [{ name: 'z', type: 'string' as const }] };
    const merged = toolBindings(node, t.type === 'tool' ? t.config : (undefined as never));
    expect(merged.inputs.map((i) => i.from)).toEqual(['params.p', 'a.b']);
    expect(merged.outputs.map((o) => o.name)).toEqual(['z', 'o']);
  });
});
