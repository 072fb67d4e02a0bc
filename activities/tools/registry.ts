import { readdirSync } from 'node:fs';
import path from 'node:path';
import { SECRET_FIELD } from '../../lib/dag/secretFields';
import { isToolAvailable, TOOL_CATEGORIES, TOOL_ID } from '../../lib/tools/descriptor';
import { compileToolSchemas } from '../../lib/tools/validation';
import type { ToolDefinition } from './types';

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
  if (
    tool.syntaxFields !== undefined &&
    (typeof tool.syntaxFields !== 'object' || tool.syntaxFields === null || Object.values(tool.syntaxFields).some((language) => language !== 'jsonata'))
  ) {
    problems.push('syntaxFields must map config fields to a language the platform checks (jsonata)');
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
    compileToolSchemas(def); // a broken schema fails at start-up
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

