import { isValueRef, type EvalContext, type RunInput, type ValueRef } from '../../lib/runs/types';
import type { NodeState } from '../../lib/dag/model';
import type { ExecEnv } from './execute';
import { toolConfigOf, type Reads, type RunGraph, type TypedNode } from './graph';
import type { PayloadBudget } from './payloads';
import type { SchedulerAction } from './scheduler/decide';
import type { PassInput, SpillKey } from './scheduler/spill';

/**
 * The payload budget's side of a pass (scheduler/spill.ts plans, this feeds the plan and stores what it chose): what
 * a pass sends through the server, and the outputs and parameters stored to keep it within the budget.
 */
export interface SpillHost {
  readonly input: RunInput;
  readonly graph: RunGraph;
  readonly env: ExecEnv;
  readonly states: Record<string, NodeState>;
  /** Parameters stored so far, by name: they travel by reference in contexts. */
  readonly storedParams: Map<string, ValueRef>;
  readonly payloads: PayloadBudget | null;
}

/** The pass as scheduler/spill.ts plans it: the joins completing and the contexts of the nodes starting. */
export function passInput(host: SpillHost, actions: SchedulerAction[], payloads: PayloadBudget): PassInput {
  // Only regular activities send their input through the server and keep it in history; local ones (conditions,
  // loop items, rendering, the tools in `localTools`: budgeted runs started after LOCAL_ACTIVITIES_PATCH) do not.
  const local = new Set(host.input.options.localTools ?? []);
  const contextsOf = (id: string): PassInput['starts'][number]['contexts'] => {
    const node = host.graph.nodes.get(id)!;
    if (node.type === 'tool') return local.has(node.config.tool) ? [] : [{ reads: host.graph.reads.get(id), copies: 1 }];
    // A budgeted subworkflow node's context goes to the activity preparing the child's parameters.
    if (node.type === 'subworkflow') return host.env.subworkflowBudget ? [{ reads: readsOf(host, node), copies: 1 }] : [];
    if (node.type !== 'loop') return [];
    // A batch child's input carries the template's context; with a regular tool or a budgeted subworkflow, so does
    // each item's activity, `concurrency` of them scheduled at once.
    const { template, concurrency } = node.config;
    const regularItems =
      template.type === 'tool' ? !local.has(toolConfigOf({ config: template.config }).tool) : Boolean(host.env.subworkflowBudget);
    return [{ reads: readsOf(host, node), copies: 1 + (regularItems ? concurrency : 0) }];
  };
  return {
    ...passValues(host, payloads),
    joins: actions.flatMap((a) => (a.kind === 'completeJoin' ? [{ node: a.node, output: a.output }] : [])),
    starts: actions.flatMap((a) => (a.kind === 'start' ? [{ node: a.node, contexts: contextsOf(a.node) }] : [])),
    budget: payloads.bytes,
  };
}

/** The values a plan reads: outputs, parameters, what is stored already, and their sizes. */
export function passValues(host: SpillHost, payloads: PayloadBudget): Pick<PassInput, 'outputOf' | 'params' | 'storedParams' | 'isStored' | 'bytesOf'> {
  return {
    outputOf: (id) => (host.states[id]?.status === 'completed' ? host.states[id].output : undefined),
    params: host.input.parameters,
    storedParams: host.storedParams,
    isStored: isValueRef,
    bytesOf: (value) => payloads.sizeOf(value),
  };
}

/** Stores the planned outputs and parameters not stored yet; false when none was left. Throws when the store fails. */
export async function storeSpills(host: SpillHost, planned: SpillKey[]): Promise<boolean> {
  // Only completed nodes' inline outputs and parameters not stored yet: each spill makes progress.
  const keys = planned.filter((key) =>
    'node' in key
      ? host.states[key.node]?.status === 'completed' && !isValueRef(host.states[key.node]!.output)
      : !host.storedParams.has(key.param),
  );
  if (keys.length === 0) return false;
  const entries = keys.map((key) =>
    'node' in key
      ? { name: key.node, value: host.states[key.node]!.output }
      : { name: `params.${key.param}`, value: host.input.parameters[key.param] },
  );
  const refs = await host.payloads!.store(entries);
  keys.forEach((key, i) => {
    if ('node' in key) host.states[key.node]!.output = refs[i];
    else host.storedParams.set(key.param, refs[i]!);
  });
  return true;
}

/**
 * What a node's activities read: a loop's template's, and with the subworkflow budget every parameter for a
 * subworkflow that passes them on (inherit_context), so they travel as the budget has them (stored by reference).
 */
export function readsOf(host: Pick<SpillHost, 'graph' | 'env'>, node: TypedNode): Reads | undefined {
  const reads = node.type === 'loop' ? host.graph.templateReads.get(node.id) : host.graph.reads.get(node.id);
  if (!host.env.subworkflowBudget) return reads;
  const subworkflow = node.type === 'subworkflow' ? node.config : node.type === 'loop' && node.config.template.type === 'subworkflow' ? node.config.template.config : null;
  const inherits = Boolean(subworkflow && (subworkflow as { inherit_context?: boolean }).inherit_context);
  return inherits ? { nodes: reads?.nodes ?? [], params: 'all' } : reads;
}

/**
 * What a node may read: only the outputs and parameters its config mentions, so activity inputs stay small. A
 * declared parameter the run was not given (optional, no default) reads as null, as save-time checks assume.
 */
export function contextOf(host: SpillHost, id: string, reads: Reads | undefined = host.graph.reads.get(id)): EvalContext {
  const nodes: Record<string, unknown> = {};
  for (const ref of reads?.nodes ?? []) {
    const s = host.states[ref];
    if (s?.status === 'completed') nodes[ref] = s.output;
  }
  const all = host.input.parameters;
  const declared = (name: string) => host.input.compiled.parameters.some((p) => p.name === name);
  const names = !reads || reads.params === 'all' ? null : reads.params.filter((name) => name in all || declared(name));
  if (host.storedParams.size === 0) {
    return { params: names ? Object.fromEntries(names.map((name) => [name, all[name] ?? null])) : all, nodes };
  }
  const params = Object.fromEntries((names ?? Object.keys(all)).map((name) => [name, host.storedParams.get(name) ?? all[name] ?? null]));
  return { params, nodes };
}
