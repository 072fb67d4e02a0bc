import type { NodeDef } from '../model';
import type { TypedConfig } from '../nodeConfig';
import { specOf } from '../nodeTypes';
import type { OutputType, ValidationEnv } from './types';

/**
 * The outputs a node offers to references, by name: its type's implicit ones (lib/dag/nodeTypes.ts: a condition's
 * verdict and the branch taken, a loop's results in item order, ...) and what the type adds (a tool's schema
 * outputs and declared ones). Null when any name goes (a subworkflow without declared outputs).
 */
export function nodeOutputs(node: NodeDef, typed: TypedConfig, env: Pick<ValidationEnv, 'tool'>): Record<string, OutputType> | null {
  const spec = specOf(typed.type);
  const added = spec.outputs ? spec.outputs(node, typed.config, env) : Object.fromEntries((node.outputs ?? []).map((o) => [o.name, o.type]));
  return added === null ? null : { ...spec.implicitOutputs, ...added };
}
