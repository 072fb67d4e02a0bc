import type { CompiledWorkflow, NodeDef, NodeType } from '../../lib/dag/model';
import type { ConfigOf } from '../../lib/dag/nodeConfig';
import { PARAMETER_ROOTS_ALTERNATION } from '../../lib/dag/parameterRoots';
import {
  ConfigError,
  parseApprovalConfig,
  parseRespondConfig,
  parseConditionConfig,
  parseLoopConfig,
  parseParallelConfig,
  parseRepeatConfig,
  parseSubworkflowConfig,
  parseSwitchConfig,
  parseWaitConfig,
  parseWaitForEventConfig,
  parseToolConfig,
  type ApprovalConfig,
  type RespondConfig,
  type ConditionConfig,
  type LoopConfig,
  type ParallelConfig,
  type RepeatConfig,
  type SubworkflowConfig,
  type SwitchConfig,
  type WaitConfig,
  type WaitForEventConfig,
  type ToolConfig,
} from './configs';

/**
 * The interpreter's static view of one compiled workflow version: typed node configs and the dependency
 * structure. Pure and deterministic (bundled into workflow code); built once per run.
 *
 * Dependencies:
 * - `preds`: explicit edges plus the implied edge from a condition to each of its branches.
 * - `startPreds`: a node listed in a parallel node's branch waits for the parallel node to *start* (not finish).
 */

export type { ApprovalConfig, ConditionConfig, RespondConfig, LoopConfig, ParallelConfig, RepeatConfig, SubworkflowConfig, SwitchConfig, ToolConfig, WaitConfig, WaitForEventConfig };

/** A node with its config read by its type (one member per type of NODE_TYPES). */
export type TypedNode = { [T in NodeType]: { id: string; type: T; def: NodeDef; config: ConfigOf<T> } }[NodeType];

/** What a node's config may read: node outputs by id, and parameters by name (or all of them). */
export interface Reads {
  nodes: string[];
  params: string[] | 'all';
}

export interface RunGraph {
  order: string[];
  nodes: Map<string, TypedNode>;
  preds: Map<string, string[]>;
  startPreds: Map<string, string[]>;
  /** what a node's expressions or bindings may read (a loop's: its `items`) */
  reads: Map<string, Reads>;
  /** what a loop's template may read, per loop node (passed to every item, so kept minimal) */
  templateReads: Map<string, Reads>;
  exitPoints: string[];
}

export class GraphError extends Error {}

/** A tool config with the node-level `inputs` / `outputs` (spec) merged into the tool's own. */
export function toolConfigOf(def: { config: Record<string, unknown>; inputs?: NodeDef['inputs']; outputs?: NodeDef['outputs'] }): ToolConfig {
  let parsed: ToolConfig;
  try {
    parsed = parseToolConfig(def.config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new GraphError(`invalid tool config: ${err.message}`);
  }
  return {
    ...parsed,
    inputs: [...parsed.inputs, ...(def.inputs ?? [])],
    outputs: [...parsed.outputs, ...(def.outputs ?? [])],
  };
}

/**
 * How the interpreter reads each node type's config (workflows/runs/configs.ts): a type of NODE_TYPES without a
 * reader does not compile (docs/conventions.md#a-new-node-type).
 */
const CONFIG_READERS: { readonly [T in NodeType]: (def: NodeDef) => ConfigOf<T> } = {
  tool: toolConfigOf,
  condition: (def) => parseConditionConfig(def.config),
  switch: (def) => parseSwitchConfig(def.config),
  wait: (def) => parseWaitConfig(def.config),
  wait_for_event: (def) => parseWaitForEventConfig(def.config),
  approval: (def) => parseApprovalConfig(def.config),
  respond: (def) => parseRespondConfig(def.config),
  parallel: (def) => parseParallelConfig(def.config),
  loop: (def) => parseLoopConfig(def.config),
  repeat: (def) => parseRepeatConfig(def.config),
  subworkflow: (def) => parseSubworkflowConfig(def.config),
};

function typed(def: NodeDef): TypedNode {
  try {
    // The reader of def.type gives that type's config: the pair is one member of TypedNode.
    return { id: def.id, type: def.type, def, config: CONFIG_READERS[def.type](def) } as TypedNode;
  } catch (err) {
    if (err instanceof GraphError) throw new GraphError(`node ${def.id}: ${err.message}`);
    if (err instanceof ConfigError) throw new GraphError(`node ${def.id}: invalid ${def.type} config: ${err.message}`);
    throw err;
  }
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_-]*/g;
const NAMED_PARAM = new RegExp(
  String.raw`\b(?:${PARAMETER_ROOTS_ALTERNATION})(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\\?["']([A-Za-z_][A-Za-z0-9_]*)\\?["']\])`,
  'g',
);
const ANY_PARAMS = new RegExp(String.raw`\b(?:${PARAMETER_ROOTS_ALTERNATION})\b`, 'g');

/**
 * The parameters a value's templates read: the names used as `params.<name>` / `params["<name>"]`, or all of them
 * when `params` appears any other way (e.g. `${params}`). Passing only those keeps activity inputs small.
 */
export function mentionedParams(value: unknown): string[] | 'all' {
  const text = JSON.stringify(value) ?? '';
  const names = new Set<string>();
  let named = 0;
  for (const match of text.matchAll(NAMED_PARAM)) {
    names.add((match[1] ?? match[2])!);
    named++;
  }
  const mentions = [...text.matchAll(ANY_PARAMS)].length;
  return mentions > named ? 'all' : [...names];
}

/** Node ids mentioned anywhere in a value (templates, bindings, expressions): a cheap superset of what it reads. */
export function mentionedIds(value: unknown, known: Set<string>, self?: string): string[] {
  const found = new Set<string>();
  const text = JSON.stringify(value) ?? '';
  for (const match of text.matchAll(IDENTIFIER)) {
    const word = match[0];
    if (word !== self && known.has(word)) found.add(word);
    // ids may contain '-', which also splits words in expressions: try the dash-free prefix as well
    const head = word.split('-')[0]!;
    if (head !== word && head !== self && known.has(head)) found.add(head);
  }
  return [...found];
}

/** What an arbitrary value (e.g. a fallback handler's config) reads, within this graph. */
export function readsOfValue(graph: RunGraph, value: unknown): Reads {
  return { nodes: mentionedIds(value, new Set(graph.order)), params: mentionedParams(value) };
}

export function buildGraph(compiled: CompiledWorkflow): RunGraph {
  const nodes = new Map<string, TypedNode>();
  const order: string[] = [];
  for (const def of compiled.dag.nodes) {
    if (nodes.has(def.id)) throw new GraphError(`duplicate node id ${def.id}`);
    nodes.set(def.id, typed(def));
    order.push(def.id);
  }
  const preds = new Map<string, string[]>(order.map((id) => [id, []]));
  const startPreds = new Map<string, string[]>(order.map((id) => [id, []]));
  const addEdge = (map: Map<string, string[]>, from: string, to: string): void => {
    const list = map.get(to);
    if (!list || !nodes.has(from)) throw new GraphError(`edge ${from} -> ${to} names an unknown node`);
    if (!list.includes(from)) list.push(from);
  };
  for (const edge of compiled.dag.edges) addEdge(preds, edge.from, edge.to);
  for (const node of nodes.values()) {
    for (const target of branchTargets(node)) addEdge(preds, node.id, target);
    if (node.type === 'parallel') {
      for (const branch of node.config.branches) for (const member of branch.nodes) addEdge(startPreds, node.id, member);
    }
  }
  const known = new Set(order);
  const readsOf = (value: unknown, self: string): Reads => ({
    nodes: mentionedIds(value, known, self),
    params: mentionedParams(value),
  });
  const reads = new Map<string, Reads>();
  const templateReads = new Map<string, Reads>();
  for (const node of nodes.values()) {
    if (node.type === 'loop') {
      reads.set(node.id, readsOf({ items: node.config.items, inputs: node.def.inputs }, node.id));
      templateReads.set(node.id, readsOf(node.config.template, node.id));
    } else {
      reads.set(node.id, readsOf({ config: node.def.config, inputs: node.def.inputs }, node.id));
    }
  }
  assertAcyclic(order, preds, startPreds);
  return { order, nodes, preds, startPreds, reads, templateReads, exitPoints: compiled.dag.exitPoints };
}

/** The nodes a condition or a switch chooses between: each waits for it (implied edges), and those not taken are skipped. */
export function branchTargets(node: TypedNode): string[] {
  if (node.type === 'condition') return [node.config.trueBranch, node.config.falseBranch].filter((t): t is string => t !== undefined);
  if (node.type === 'switch') return [...node.config.cases.map((c) => c.next), ...(node.config.default ? [node.config.default] : [])];
  if (node.type === 'approval') {
    return [node.config.approved_branch, node.config.rejected_branch, node.config.timed_out_branch].filter((t): t is string => t !== undefined);
  }
  return [];
}

/** The API validates definitions; this guards the interpreter against a stored graph it cannot finish. */
function assertAcyclic(order: string[], preds: Map<string, string[]>, startPreds: Map<string, string[]>): void {
  const state = new Map<string, 1 | 2>();
  const visit = (id: string, path: string[]): void => {
    const s = state.get(id);
    if (s === 2) return;
    if (s === 1) throw new GraphError(`cycle: ${[...path, id].join(' -> ')}`);
    state.set(id, 1);
    for (const p of [...preds.get(id)!, ...startPreds.get(id)!]) visit(p, [...path, id]);
    state.set(id, 2);
  };
  for (const id of order) visit(id, []);
}
