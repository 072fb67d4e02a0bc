import { dagSchema, errorHandlingSchema, type CompiledWorkflow, type NodeState, type NodeStatus } from '../../../lib/dag/model';
import { buildGraph, type RunGraph } from '../../../workflows/runs/graph';

/** Graphs and node states for the scheduler's unit tests (workflows/runs/scheduler). */

export const tool = (id: string) => ({ id, type: 'tool', config: { tool: 'json_transform', config: {} } });

export const condition = (id: string, trueBranch?: string, falseBranch?: string) => ({
  id,
  type: 'condition',
  config: { expression: 'true', ...(trueBranch ? { trueBranch } : {}), ...(falseBranch ? { falseBranch } : {}) },
});

/** A switch by ordered conditions: case i leads to targets[i]. */
export const switchNode = (id: string, targets: string[], fallback?: string) => ({
  id,
  type: 'switch',
  config: { cases: targets.map((next, i) => ({ when: `params.n == ${i}`, next })), ...(fallback ? { default: fallback } : {}) },
});

export const parallel = (id: string, branches: Record<string, string[]>, joinStrategy = 'wait_all', n?: number) => ({
  id,
  type: 'parallel',
  config: { branches: Object.entries(branches).map(([branch, nodes]) => ({ id: branch, nodes })), joinStrategy, ...(n ? { n } : {}) },
});

/** A compiled workflow of these nodes and edges, with every other field at its default. */
export function compiledOf(nodes: unknown[], edges: { from: string; to: string }[] = []): CompiledWorkflow {
  const dag = dagSchema.parse({ nodes, edges });
  return {
    workflowId: 'w',
    organizationId: 'o',
    version: 1,
    name: 'n',
    dag: { ...dag, entryPoints: [], exitPoints: [] },
    parameters: [],
    errorHandling: errorHandlingSchema.parse({}),
  };
}

/** `edges` as 'a>b' strings. */
export function graphOf(nodes: unknown[], edges: string[] = []): RunGraph {
  return buildGraph(compiledOf(nodes, edges.map((e) => ({ from: e.split('>')[0]!, to: e.split('>')[1]! }))));
}

type StateSpec = NodeStatus | Partial<NodeState>;

/** Every node of the graph pending, except those given (a status, or a partial state). */
export function statesOf(graph: RunGraph, given: Record<string, StateSpec> = {}): Record<string, NodeState> {
  const states: Record<string, NodeState> = {};
  for (const id of graph.order) {
    const spec = given[id];
    const partial = typeof spec === 'string' ? { status: spec } : (spec ?? {});
    states[id] = { status: 'pending', attempts: 0, startedAt: null, finishedAt: null, output: null, error: null, ...partial };
  }
  return states;
}
