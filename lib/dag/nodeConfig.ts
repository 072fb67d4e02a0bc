import { z } from 'zod';
import {
  approvalConfigSchema,
  conditionConfigSchema,
  respondConfigSchema,
  loopConfigSchema,
  parallelConfigSchema,
  repeatConfigSchema,
  subworkflowConfigSchema,
  switchConfigSchema,
  waitConfigSchema,
  waitForEventConfigSchema,
  toolConfigSchema,
  type NodeDef,
  type NodeType,
} from './model';
import type { Problem } from './problems';
import { zodIssueDetails } from '../zodIssues';

/**
 * Each node type's config schema (lib/dag/model.ts). The typed configs below derive from it, so a type added to
 * NODE_TYPES is refused by the compiler here first, then at every registry keyed by node type
 * (docs/conventions.md#a-new-node-type).
 */
export const NODE_CONFIG_SCHEMAS = {
  tool: toolConfigSchema,
  condition: conditionConfigSchema,
  switch: switchConfigSchema,
  wait: waitConfigSchema,
  wait_for_event: waitForEventConfigSchema,
  approval: approvalConfigSchema,
  respond: respondConfigSchema,
  parallel: parallelConfigSchema,
  loop: loopConfigSchema,
  repeat: repeatConfigSchema,
  subworkflow: subworkflowConfigSchema,
} as const satisfies { readonly [T in NodeType]: z.ZodType };

/** A node type's config as parsed (defaults applied). */
export type ConfigOf<T extends NodeType> = z.output<(typeof NODE_CONFIG_SCHEMAS)[T]>;

export type ToolConfig = ConfigOf<'tool'>;
export type ConditionConfig = ConfigOf<'condition'>;
export type ParallelConfig = ConfigOf<'parallel'>;
export type LoopConfig = ConfigOf<'loop'>;
export type RepeatConfig = ConfigOf<'repeat'>;
export type SubworkflowConfig = ConfigOf<'subworkflow'>;
export type SwitchConfig = ConfigOf<'switch'>;
export type WaitConfig = ConfigOf<'wait'>;
export type WaitForEventConfig = ConfigOf<'wait_for_event'>;
export type ApprovalConfig = ConfigOf<'approval'>;
export type RespondConfig = ConfigOf<'respond'>;

export type TypedConfig = { [T in NodeType]: { type: T; config: ConfigOf<T> } }[NodeType];

const SCHEMAS: { readonly [T in NodeType]: z.ZodType } = NODE_CONFIG_SCHEMAS;

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
