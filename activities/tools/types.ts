import { z } from 'zod';
import type { JsonSchema, ToolDescriptor } from '../../lib/tools/descriptor';
import type { ActivityDeps } from '../deps';

export interface ToolContext {
  organizationId: string;
  runId: string;
  nodeId: string;
  attempt: number;
  /** Stable across retries of the same node in the same run: `${runId}:${nodeId}`. */
  idempotencyKey: string;
  deps: ActivityDeps;
  /** Aborted when the run is cancelled or the activity times out. */
  signal: AbortSignal;
  heartbeat(details?: unknown): void;
}


export interface ToolDefinition<I = Record<string, unknown>, O = unknown> extends ToolDescriptor {
  /** The zod schemas `inputSchema` and `outputSchema` were derived from (absent in a module written as plain JSON). */
  input?: z.ZodType;
  output?: z.ZodType;
  /** The output (or, for some tools, the output already serialized off the event loop: lib/serializedJson.ts). */
  execute(input: I, ctx: ToolContext): Promise<O>;
}

/**
 * What a tool file writes: the input and output as zod schemas, written once. `defineTool` derives the JSON schemas
 * from them (checked by ajv at workflow save, before and after every call) and `execute` is typed from them.
 */
export interface ToolSpec<I extends z.ZodType, O extends z.ZodType, S = never> extends Omit<ToolDescriptor, 'inputSchema' | 'outputSchema'> {
  /**
   * Usually `z.strictObject({...})`: unknown keys are refused, so a typo in a node config is caught at save. Only
   * what JSON Schema can say counts: `.refine()` checks and transforms are not part of the derived schema and are
   * never run (check such rules in `execute`; `.meta({...})` adds JSON Schema keywords zod has no method for).
   */
  input: I;
  /** Usually `z.object({...})`: its properties are the node's outputs (`<node>.<name>`). */
  output: O;
  /** `S`: `SerializedJson` for a tool that may answer its output serialized (lib/serializedJson.ts). */
  execute(input: z.input<I>, ctx: ToolContext): Promise<z.input<O> | S>;
}

/** A tool made by `defineTool`: the registry's shape, with `execute` and the schemas keeping their types. */
export type DefinedTool<I extends z.ZodType, O extends z.ZodType, S = never> = ToolDefinition<z.input<I>, z.input<O> | S> & { input: I; output: O };

/**
 * The JSON Schema of a tool's input or output. Input side (`io: 'input'`): the shape a node config or a tool's answer
 * has before any parsing, so keys with a `.default()` are optional. Unrepresentable types (functions, dates, ...)
 * throw, so a tool that cannot be described fails at start-up, not at its first run.
 */
export function toolJsonSchema(schema: z.ZodType): JsonSchema {
  const json = withoutSafeIntegerBounds(z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'throw' })) as JsonSchema;
  delete json.$schema;
  return json;
}

/** `z.int()` writes ±MAX_SAFE_INTEGER as bounds on every integer: true of JSON numbers anyway, and noise to a reader. */
function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'minimum' && v === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && v === Number.MAX_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(v);
  }
  return out;
}

/** Every tool file: `export default defineTool({ id, ..., input: z.strictObject({...}), output: z.object({...}), execute })`. */
export function defineTool<I extends z.ZodType, O extends z.ZodType, S = never>(spec: ToolSpec<I, O, S>): DefinedTool<I, O, S> {
  return { ...spec, inputSchema: toolJsonSchema(spec.input), outputSchema: toolJsonSchema(spec.output) };
}

/** Thrown by tools for failures retrying cannot fix (bad input, 4xx answers). */
export class NonRetryableToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'NonRetryableToolError';
  }
}
