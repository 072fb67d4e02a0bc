import { z } from 'zod';
import {
  conditionConfigSchema,
  loopConfigSchema,
  parallelConfigSchema,
  subworkflowConfigSchema,
  toolConfigSchema,
  type NodeDef,
  type NodeType,
} from './model';
import type { Problem } from './problems';

export type ToolConfig = z.output<typeof toolConfigSchema>;
export type ConditionConfig = z.output<typeof conditionConfigSchema>;
export type ParallelConfig = z.output<typeof parallelConfigSchema>;
export type LoopConfig = z.output<typeof loopConfigSchema>;
export type SubworkflowConfig = z.output<typeof subworkflowConfigSchema>;

export type TypedConfig =
  | { type: 'tool'; config: ToolConfig }
  | { type: 'condition'; config: ConditionConfig }
  | { type: 'parallel'; config: ParallelConfig }
  | { type: 'loop'; config: LoopConfig }
  | { type: 'subworkflow'; config: SubworkflowConfig };

const SCHEMAS: Record<NodeType, z.ZodType> = {
  tool: toolConfigSchema,
  condition: conditionConfigSchema,
  parallel: parallelConfigSchema,
  loop: loopConfigSchema,
  subworkflow: subworkflowConfigSchema,
};

function joinPath(prefix: string, segments: PropertyKey[]): string {
  return [prefix, ...segments.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))]
    .filter(Boolean)
    .join('.')
    .replace(/\.\[/g, '[');
}

/** zod issues as problems; unknown keys are reported one by one at their own path. */
export function zodProblems(error: z.ZodError, prefix: string): Problem[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: joinPath(prefix, [...issue.path, key]), problem: 'unknown field' }))
      : [{ path: joinPath(prefix, issue.path), problem: issue.message }],
  );
}

/** The node's `config` parsed by its type (defaults applied), or the problems naming `<path>.config.<field>`. */
export function parseNodeConfig(
  node: Pick<NodeDef, 'type' | 'config'>,
  path: string,
): { ok: true; value: TypedConfig } | { ok: false; problems: Problem[] } {
  const result = SCHEMAS[node.type].safeParse(node.config);
  if (!result.success) return { ok: false, problems: zodProblems(result.error, `${path}.config`) };
  return { ok: true, value: { type: node.type, config: result.data } as TypedConfig };
}

/** Node-level `inputs`/`outputs` merged with a tool config's (spec: both places are allowed). */
export function toolBindings(node: NodeDef, config: ToolConfig) {
  return {
    inputs: [...(node.inputs ?? []), ...config.inputs],
    outputs: [...(node.outputs ?? []), ...config.outputs],
  };
}
