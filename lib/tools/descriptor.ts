import type { RunOptions } from '../runs/types';

/**
 * The tool contract as data: what a tool is without its code (the worker's modules under activities/tools/ carry
 * the code). The API, the domain and workflow runs read tools only through these descriptors: the catalogue a worker
 * publishes (domain/tools/catalogue.ts), or the built-in one generated from the modules (builtIn.ts).
 */

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
  /**
   * Top-level config fields written in a language the platform parses, checked at save (validate, tool test) rather
   * than failing the run: `jsonata` (lib/expressions/jsonataSyntax.ts). A value holding `${...}` templates is
   * checked at run time only, once rendered.
   */
  syntaxFields?: Readonly<Record<string, 'jsonata'>>;
}

/**
 * The tool registry. Every file directly in `activities/tools/` is a tool module — except this file, `types.ts`,
 * `index.ts`, test and declaration files, and files whose name starts with `_` — and must export its tool as
 * `export default defineTool({...})`. The folder is listed once, on first use, so adding a tool is adding one file:
 * no list to edit, no code generation. Helpers shared by tools live in sub-folders (e.g. `activities/tools/support/`),
 * which are not scanned. A malformed tool module or a duplicate id throws at start-up rather than at the first run
 * that needs it.
 *
 * The worker runs the tools of `workerTools(config)`: these, the modules of TOOLS_DIRECTORIES, minus the test tools
 * unless TOOLS_TEST_TOOLS_ENABLED. It publishes their descriptors to the tool catalogue at start (domain/tools), which
 * is what the API lists and validates against: a tool added to a worker appears without restarting the API.
 */

export const TOOL_ID = /^[a-z][a-z0-9_]{1,63}$/;

/** Whether a tool may be listed, accepted in a definition and run where test tools are `enabled` or not. */
export function isToolAvailable(tool: Pick<ToolDescriptor, 'testTool'>, testToolsEnabled: boolean): boolean {
  return testToolsEnabled || tool.testTool !== true;
}

/** A tool without its code: plain JSON for the catalogue (domain/tools). */
export function describeTool(tool: ToolDescriptor): ToolDescriptor {
  return {
    id: tool.id,
    name: tool.name,
    category: tool.category,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    sideEffect: tool.sideEffect,
    ...(tool.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: tool.defaultTimeoutMs } : {}),
    ...(tool.secretFields?.length ? { secretFields: [...tool.secretFields] } : {}),
    ...(tool.runsLocally ? { runsLocally: true } : {}),
    ...(tool.testTool ? { testTool: true } : {}),
    ...(tool.syntaxFields && Object.keys(tool.syntaxFields).length ? { syntaxFields: { ...tool.syntaxFields } } : {}),
  };
}

/**
 * What the interpreter needs to know about the tools, passed in every run's options (workflow code has no registry):
 * their own time limits and which of them run as local activities. Runs take it from the tool catalogue
 * (domain/tools), i.e. from the tools the worker published.
 */
export function toolRunOptions(
  tools: readonly Pick<ToolDescriptor, 'id' | 'defaultTimeoutMs' | 'runsLocally'>[],
): Required<Pick<RunOptions, 'toolTimeoutsMs' | 'localTools'>> {
  return {
    toolTimeoutsMs: Object.fromEntries(tools.filter((t) => t.defaultTimeoutMs !== undefined).map((t) => [t.id, t.defaultTimeoutMs!])),
    localTools: tools.filter((t) => t.runsLocally).map((t) => t.id),
  };
}
