import { canonicalJson } from '../../lib/canonicalJson';
import { descendantsOf } from '../../lib/dag/graph';
import type { CompiledWorkflow, NodeDef, NodeState } from '../../lib/dag/model';
import { parseNodeConfig, type TypedConfig } from '../../lib/dag/nodeConfig';
import { PARAMETER_ROOTS } from '../../lib/dag/parameterRoots';
import { dependencyStructure } from '../../lib/dag/structure';

/**
 * Which node outputs of a finished run a rerun reuses (POST .../runs/{run_id}/rerun, docs/runs.md#rerun). A node
 * runs again when it is the node asked for or downstream of it, when it reads a parameter whose value changed, when
 * the version it runs on defines it differently from the original's, or when it did not complete; and so does
 * everything downstream of a node that runs again, and the parallel node of a branch member that does (its join
 * holds the member's output). Everything else keeps its output.
 */

export interface RerunRequest {
  /** The node to run again with everything after it; absent: every node runs again. */
  fromNode?: string;
  /** Parameters whose value differs from the original run's. */
  changedParams: ReadonlySet<string>;
}

/** Whether a node's definition names the parameter (as `params.x`, `parameters.x` or `params["x"]`). */
function mentionsParameter(def: NodeDef, name: string): boolean {
  const text = JSON.stringify(def);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const roots = PARAMETER_ROOTS.join('|');
  return new RegExp(`\\b(?:${roots})(?:\\.${escaped}\\b|\\[\\\\?["']${escaped}\\\\?["']\\])`).test(text);
}

/** A subworkflow that inherits the parent's context reads every parameter. */
function readsAllParameters(def: NodeDef): boolean {
  const config = def.config as { inherit_context?: unknown; template?: { config?: { inherit_context?: unknown } } };
  return config.inherit_context === true || config.template?.config?.inherit_context === true;
}

export function rerunReuse(
  compiled: Pick<CompiledWorkflow, 'dag'>,
  original: { nodes: readonly NodeDef[]; states: Record<string, NodeState> },
  request: RerunRequest,
): Record<string, NodeState> {
  const nodes = compiled.dag.nodes;
  const configs = new Map<string, TypedConfig>();
  for (const node of nodes) {
    const parsed = parseNodeConfig(node, node.id);
    if (parsed.ok) configs.set(node.id, parsed.value);
  }
  const structure = dependencyStructure(nodes.map((n) => n.id), compiled.dag.edges, configs);
  const before = new Map(original.nodes.map((n) => [n.id, canonicalJson(n)]));

  const again = new Set<string>();
  for (const node of nodes) {
    const changedDefinition = before.get(node.id) !== canonicalJson(node);
    const readsChanged = [...request.changedParams].some((name) => mentionsParameter(node, name)) || (request.changedParams.size > 0 && readsAllParameters(node));
    const asked = request.fromNode === undefined || request.fromNode === node.id;
    if (asked || changedDefinition || readsChanged || original.states[node.id]?.status !== 'completed') again.add(node.id);
  }
  // Downstream of a node that runs again, and the joins of branch members that do, until nothing changes.
  for (let grew = true; grew; ) {
    grew = false;
    for (const id of [...again]) {
      const more = [...descendantsOf(structure.graph, id)];
      const join = structure.parallelOf.get(id);
      if (join) more.push(join);
      for (const next of more) {
        if (!again.has(next)) {
          again.add(next);
          grew = true;
        }
      }
    }
  }
  return Object.fromEntries(nodes.filter((n) => !again.has(n.id)).map((n) => [n.id, original.states[n.id]!]));
}

/**
 * The definition a rerun with an edited node input runs (Conductor's rerun with new task input): the tool node's
 * config becomes exactly `input`, its bindings dropped, so the tool receives `input` as given. Only that node
 * changes; the version number stays (the run's trigger says the input was edited).
 */
export function withNodeInput<C extends Pick<CompiledWorkflow, 'dag'>>(compiled: C, nodeId: string, input: Record<string, unknown>): C {
  const nodes = compiled.dag.nodes.map((node) => {
    if (node.id !== nodeId) return node;
    const { inputs: _dropped, ...rest } = node;
    return { ...rest, config: { ...node.config, config: input, inputs: [] } };
  });
  return { ...compiled, dag: { ...compiled.dag, nodes } };
}
