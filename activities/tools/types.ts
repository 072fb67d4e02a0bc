import { z } from 'zod';
import type { ActivityDeps } from '../deps';

/** JSON Schema (draft-07, as ajv reads it) describing a tool's input or output. */
export type JsonSchema = Record<string, unknown>;

export const TOOL_CATEGORIES = ['data', 'ai', 'file', 'http', 'database', 'notification', 'content', 'custom'] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/**
 * How a tool's effect behaves under activity retries:
 * - `none`: no side effect (pure transforms).
 * - `idempotent`: the effect happens once per idempotency key (run id + node id), retries included.
 * - `at_least_once`: the effect may repeat when a worker dies after the effect and before reporting.
 */
export type SideEffect = 'none' | 'idempotent' | 'at_least_once';

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

/**
 * A tool without its code: what a worker publishes to the tool catalogue (domain/tools) and what the API lists and
 * validates node configs against. Plain JSON, so it travels through PostgreSQL.
 */
export interface ToolDescriptor {
  /** snake_case; also the Temporal activity type the tool runs as. */
  id: string;
  name: string;
  category: ToolCategory;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  sideEffect: SideEffect;
  /** Per-attempt time limit the interpreter gives the activity unless the node overrides it. */
  defaultTimeoutMs?: number;
  /**
   * Cheap, pure and quick (no I/O of its own, bounded CPU, no heartbeats needed): the interpreter runs it as a local
   * activity, in the worker already running the workflow task, with no task queue round trip and one history event
   * instead of three. Leave unset for anything that waits, calls out or has a side effect.
   */
  runsLocally?: boolean;
  /**
   * The config fields that accept `{{secret.NAME}}` references (docs/secrets.md): a dot path of keys, `*` for any
   * one key (`headers.*`), and `:userinfo` after a URL field to accept them only in its user information
   * (`connection_string:userinfo`: `postgres://app:{{secret.PW}}@host/db`). Only fields whose value the tool uses as a credential and
   * never echoes: no expression, template, body, prompt or URL path. A reference anywhere else is refused at save,
   * validate and tool test, and fails the node at run time. Absent: the tool takes no secrets (the default for
   * custom tools). Checked by lib/dag/secretFields.ts.
   */
  secretFields?: readonly string[];
  /**
   * A tool for exercising the platform (`delay`, `fail`), not for real workflows: registered, listed and accepted
   * only where TOOLS_TEST_TOOLS_ENABLED is true (tests, the development stack).
   */
  testTool?: boolean;
}

export interface ToolDefinition<I = Record<string, unknown>, O = unknown> extends ToolDescriptor {
  /** The zod schemas `inputSchema` and `outputSchema` were derived from (absent in a module written as plain JSON). */
  input?: z.ZodType;
  output?: z.ZodType;
  execute(input: I, ctx: ToolContext): Promise<O>;
}

/**
 * What a tool file writes: the input and output as zod schemas, written once. `defineTool` derives the JSON schemas
 * from them (checked by ajv at workflow save, before and after every call) and `execute` is typed from them.
 */
export interface ToolSpec<I extends z.ZodType, O extends z.ZodType> extends Omit<ToolDescriptor, 'inputSchema' | 'outputSchema'> {
  /**
   * Usually `z.strictObject({...})`: unknown keys are refused, so a typo in a node config is caught at save. Only
   * what JSON Schema can say counts: `.refine()` checks and transforms are not part of the derived schema and are
   * never run (check such rules in `execute`; `.meta({...})` adds JSON Schema keywords zod has no method for).
   */
  input: I;
  /** Usually `z.object({...})`: its properties are the node's outputs (`<node>.<name>`). */
  output: O;
  execute(input: z.input<I>, ctx: ToolContext): Promise<z.input<O>>;
}

/** A tool made by `defineTool`: the registry's shape, with `execute` and the schemas keeping their types. */
export type DefinedTool<I extends z.ZodType, O extends z.ZodType> = ToolDefinition<z.input<I>, z.input<O>> & { input: I; output: O };

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
export function defineTool<I extends z.ZodType, O extends z.ZodType>(spec: ToolSpec<I, O>): DefinedTool<I, O> {
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
