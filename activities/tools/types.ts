import type { ActivityDeps } from '../deps';

/** JSON Schema (draft 2020-12 subset understood by ajv) describing a tool's input or output. */
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

export interface ToolDefinition<I = Record<string, unknown>, O = unknown> {
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
  execute(input: I, ctx: ToolContext): Promise<O>;
}

/** Identity helper so a tool file gets its input typed while the registry keeps one shape. */
export function defineTool<I = Record<string, unknown>, O = unknown>(def: ToolDefinition<I, O>): ToolDefinition {
  return def as unknown as ToolDefinition;
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
