import { readdirSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SECRET_FIELD } from '../../lib/dag/secretFields';
import type { ErrorDetail } from '../../lib/errors';
import type { RunOptions } from '../../lib/runs/types';
import { CONFIG_EXAMPLES, placeholderFor } from './support/configExamples';
import { TOOL_CATEGORIES, type ToolDefinition, type ToolDescriptor } from './types';

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
const NOT_TOOLS = new Set(['registry', 'types', 'index']);
const TOOL_FILE = /^([A-Za-z0-9][\w-]*)\.(ts|js)$/;

export function isToolFileName(file: string): boolean {
  if (file.endsWith('.d.ts') || /\.(test|spec)\.(ts|js)$/.test(file)) return false;
  const match = TOOL_FILE.exec(file);
  return Boolean(match && !NOT_TOOLS.has(match[1]!));
}

/** Checks the shape of a module's export; returns the problems (empty when it is a usable tool). */
export function toolShapeProblems(candidate: unknown): string[] {
  if (!candidate || typeof candidate !== 'object') return ['does not export a tool (export default defineTool({...}))'];
  const tool = candidate as Partial<ToolDefinition>;
  const problems: string[] = [];
  if (typeof tool.id !== 'string' || !TOOL_ID.test(tool.id)) problems.push('id must be snake_case, 2-64 characters');
  if (typeof tool.name !== 'string' || !tool.name) problems.push('name is required');
  if (!TOOL_CATEGORIES.includes(tool.category as never)) problems.push(`category must be one of ${TOOL_CATEGORIES.join(', ')}`);
  if (typeof tool.description !== 'string') problems.push('description is required');
  if (!tool.inputSchema || typeof tool.inputSchema !== 'object') problems.push('inputSchema must be a JSON schema object');
  if (!tool.outputSchema || typeof tool.outputSchema !== 'object') problems.push('outputSchema must be a JSON schema object');
  if (!['none', 'idempotent', 'at_least_once'].includes(tool.sideEffect as string)) problems.push('sideEffect is required');
  if (typeof tool.execute !== 'function') problems.push('execute must be a function');
  if (
    tool.secretFields !== undefined &&
    (!Array.isArray(tool.secretFields) || tool.secretFields.some((f) => typeof f !== 'string' || !SECRET_FIELD.test(f)))
  ) {
    problems.push('secretFields must be a list of config paths (`headers.*`, `connection_string:userinfo`)');
  }
  return problems;
}

export function loadToolsFromDirectory(directory: string): Map<string, ToolDefinition> {
  const tools = new Map<string, ToolDefinition>();
  const files = new Map<string, string>();
  // With both foo.ts and foo.js present (compiled next to sources) take one.
  for (const file of readdirSync(directory).sort()) {
    if (isToolFileName(file)) files.set(file.replace(/\.(ts|js)$/, ''), file);
  }
  for (const file of files.values()) {
    // A plugin folder's modules (activities/tools/, TOOLS_DIRECTORIES): tools, each checked for its shape below.
    // eslint-disable-next-line @typescript-eslint/no-require-imports, loom/layer-imports
    const mod = require(path.join(directory, file)) as { default?: unknown; tool?: unknown };
    const tool = mod.default ?? mod.tool;
    const problems = toolShapeProblems(tool);
    if (problems.length) throw new Error(`tool module ${file}: ${problems.join('; ')}`);
    const def = tool as ToolDefinition;
    if (tools.has(def.id)) throw new Error(`tool id ${def.id} is defined twice (${file})`);
    compiledValidators(def); // a broken schema fails at start-up
    tools.set(def.id, def);
  }
  return tools;
}

let loaded: Map<string, ToolDefinition> | null = null;
function registry(): Map<string, ToolDefinition> {
  return (loaded ??= loadToolsFromDirectory(__dirname));
}

/** Every registered tool by id. Loaded lazily on first access so importing this module does no I/O. */
export const TOOLS: ReadonlyMap<string, ToolDefinition> = {
  get size() {
    return registry().size;
  },
  get: (id: string) => registry().get(id),
  has: (id: string) => registry().has(id),
  forEach: (fn, thisArg) => registry().forEach(fn, thisArg),
  entries: () => registry().entries(),
  keys: () => registry().keys(),
  values: () => registry().values(),
  [Symbol.iterator]: () => registry()[Symbol.iterator](),
};

export function getTool(id: string): ToolDefinition | undefined {
  return registry().get(id);
}

/** Every built-in tool (the modules of activities/tools/), test tools included, by id. */
export function listTools(): ToolDefinition[] {
  return [...registry().values()].sort((a, b) => a.id.localeCompare(b.id));
}

export interface ToolSelection {
  /** TOOLS_DIRECTORIES: more folders of tool modules (same rules as activities/tools/), relative to the working directory */
  directories: readonly string[];
  /** TOOLS_TEST_TOOLS_ENABLED: keep the test tools (`testTool: true`: delay, fail) */
  testToolsEnabled: boolean;
}

/** Whether a tool may be listed, accepted in a definition and run where test tools are `enabled` or not. */
export function isToolAvailable(tool: Pick<ToolDescriptor, 'testTool'>, testToolsEnabled: boolean): boolean {
  return testToolsEnabled || tool.testTool !== true;
}

const workerSets = new Map<string, ToolDefinition[]>();

/**
 * The tools a worker registers and publishes: the built-in ones, those of the configured directories (an id defined
 * twice fails the start), minus the test tools unless enabled. Loaded once per selection.
 */
export function workerTools(selection: ToolSelection): ToolDefinition[] {
  const directories = selection.directories.map((d) => path.resolve(d));
  const key = JSON.stringify([directories, selection.testToolsEnabled]);
  let tools = workerSets.get(key);
  if (!tools) {
    const all = new Map(registry());
    for (const directory of directories) {
      for (const [id, tool] of loadToolsFromDirectory(directory)) {
        if (all.has(id)) throw new Error(`tool id ${id} of ${directory} is defined twice (a built-in tool or another directory has it)`);
        all.set(id, tool);
      }
    }
    tools = [...all.values()].filter((t) => isToolAvailable(t, selection.testToolsEnabled)).sort((a, b) => a.id.localeCompare(b.id));
    workerSets.set(key, tools);
  }
  return tools;
}

/** A tool without its code: plain JSON for the catalogue (domain/tools). */
export function describeTool(tool: ToolDefinition): ToolDescriptor {
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
  };
}

// ---- schema validation (ajv, compiled once per tool) ----

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
addFormats(ajv);

interface Validators {
  input: ValidateFunction;
  output: ValidateFunction;
}
const validators = new WeakMap<ToolDescriptor, Validators>();

/** Compiled once per descriptor object (keep descriptors that did not change: the catalogue does). */
function compiledValidators(tool: ToolDescriptor): Validators {
  let v = validators.get(tool);
  if (!v) {
    v = { input: ajv.compile(tool.inputSchema), output: ajv.compile(tool.outputSchema) };
    validators.set(tool, v);
  }
  return v;
}

export type SchemaCheck = { ok: true } | { ok: false; problems: ErrorDetail[] };

/** A missing top-level key of a tool's input: the key named, with a minimal config of the tool as an example. */
function missingKeyProblem(tool: ToolDescriptor, key: string): string {
  const schema = tool.inputSchema as { required?: string[]; properties?: Record<string, unknown> };
  const example =
    CONFIG_EXAMPLES[tool.id] ?? Object.fromEntries((schema.required ?? []).map((k) => [k, placeholderFor(schema.properties?.[k])]));
  return `required: the ${tool.id} tool needs "${key}"; for example ${JSON.stringify(example)}`;
}

function toDetails(errors: ErrorObject[] | null | undefined, prefix: string, tool?: ToolDescriptor): ErrorDetail[] {
  return (errors ?? []).slice(0, 50).map((e) => {
    const missing = e.keyword === 'required' ? `.${(e.params as { missingProperty: string }).missingProperty}` : '';
    const extra =
      e.keyword === 'additionalProperties'
        ? `.${(e.params as { additionalProperty: string }).additionalProperty}`
        : '';
    const pointer = e.instancePath.split('/').filter(Boolean).join('.');
    const missingKey = e.keyword === 'required' && pointer === '' && tool ? missing.slice(1) : null;
    return {
      path: [prefix, pointer].filter(Boolean).join('.') + missing + extra,
      problem:
        e.keyword === 'additionalProperties'
          ? 'unknown property'
          : missingKey && tool
            ? missingKeyProblem(tool, missingKey)
            : (e.message ?? 'invalid'),
    };
  });
}

/** Pure check of a tool's input against its input schema. `prefix` starts each problem's path. */
export function validateToolInput(tool: ToolDescriptor, input: unknown, prefix = 'input'): SchemaCheck {
  const validate = compiledValidators(tool).input;
  return validate(input) ? { ok: true } : { ok: false, problems: toDetails(validate.errors, prefix, tool) };
}

/** Pure check of a tool's output against its output schema. */
export function validateToolOutput(tool: ToolDescriptor, output: unknown, prefix = 'output'): SchemaCheck {
  const validate = compiledValidators(tool).output;
  return validate(output) ? { ok: true } : { ok: false, problems: toDetails(validate.errors, prefix) };
}

/**
 * What the interpreter needs to know about the tools, passed in every run's options (workflow code has no registry):
 * their own time limits and which of them run as local activities. Runs take it from the tool catalogue
 * (domain/tools), i.e. from the tools the worker published.
 */
export function toolRunOptions(
  tools: readonly Pick<ToolDescriptor, 'id' | 'defaultTimeoutMs' | 'runsLocally'>[] = listTools(),
): Required<Pick<RunOptions, 'toolTimeoutsMs' | 'localTools'>> {
  return {
    toolTimeoutsMs: Object.fromEntries(tools.filter((t) => t.defaultTimeoutMs !== undefined).map((t) => [t.id, t.defaultTimeoutMs!])),
    localTools: tools.filter((t) => t.runsLocally).map((t) => t.id),
  };
}
