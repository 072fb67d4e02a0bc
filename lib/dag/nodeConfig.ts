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
import { zodIssueDetails } from '../zodIssues';

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

/** zod issues as problems: lib/zodIssues.ts, the one rule (unknown keys one by one at their own path). */
export function zodProblems(error: z.ZodError, prefix: string, schema?: z.ZodType): Problem[] {
  return zodIssueDetails(error, prefix, schema);
}

/** The node's `config` parsed by its type (defaults applied), or the problems naming `<path>.config.<field>`. */
export function parseNodeConfig(
  node: Pick<NodeDef, 'type' | 'config'>,
  path: string,
): { ok: true; value: TypedConfig } | { ok: false; problems: Problem[] } {
  const result = SCHEMAS[node.type].safeParse(node.config);
  if (!result.success) return { ok: false, problems: zodProblems(result.error, `${path}.config`, SCHEMAS[node.type]) };
  return { ok: true, value: { type: node.type, config: result.data } as TypedConfig };
}

/** Node-level `inputs`/`outputs` merged with a tool config's (spec: both places are allowed). */
export function toolBindings(node: NodeDef, config: ToolConfig) {
  return {
    inputs: [...(node.inputs ?? []), ...config.inputs],
    outputs: [...(node.outputs ?? []), ...config.outputs],
  };
}
