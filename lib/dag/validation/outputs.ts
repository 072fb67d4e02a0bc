import type { NodeDef } from '../model';
import { toolBindings, type TypedConfig } from '../nodeConfig';
import type { OutputType, ValidationEnv } from './types';

/**
 * Outputs every node of a type has, as the interpreter produces them (workflows/runs): a condition's verdict and
 * the branch taken, a loop's results in item order, a parallel node's per-branch outputs. A subworkflow's outputs
 * are the child's results (keyed by its exit nodes), unknown here: any name is accepted unless `outputs` are declared.
 */
export const IMPLICIT_OUTPUTS: Record<string, Record<string, OutputType>> = {
  condition: { result: 'boolean', branch: 'string' },
  loop: { results: 'array', count: 'integer' },
  parallel: { branches: 'object', completed: 'array' },
  subworkflow: {},
  tool: {},
};

/**
 * The outputs a node offers to references, by name: its type's implicit ones, a tool's schema outputs and the
 * declared ones. Null when any name goes (a subworkflow without declared outputs).
 */
export function nodeOutputs(node: NodeDef, typed: TypedConfig, env: Pick<ValidationEnv, 'tool'>): Record<string, OutputType> | null {
  const out: Record<string, OutputType> = { ...IMPLICIT_OUTPUTS[node.type] };
  if (typed.type === 'tool') {
    Object.assign(out, env.tool(typed.config.tool)?.outputs ?? {});
    for (const o of toolBindings(node, typed.config).outputs) out[o.name] = o.type;
    return out;
  }
  if (typed.type === 'subworkflow' && !node.outputs?.length) return null;
  for (const o of node.outputs ?? []) out[o.name] = o.type;
  return out;
}
