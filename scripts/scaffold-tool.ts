/**
 * Creates a new tool and its unit test: `npm run scaffold:tool -- <tool_id> [--category <category>]`.
 *
 * Writes `activities/tools/<tool_id>.ts` (a working example tool: input and output zod schemas, `execute`) and
 * `test/unit/tools/<tool_id>.test.ts`. Nothing else is edited: the registry finds the file on the next worker
 * start, and the worker publishes it to the API (docs/adding-a-tool.md). Refuses, with one line and exit code 2, a
 * bad id or category and existing files; never overwrites anything.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TOOL_ID } from '../lib/tools/descriptor';
import { TOOL_CATEGORIES, type ToolCategory } from '../lib/tools/descriptor';

const ROOT = path.resolve(__dirname, '..');
const USAGE = `usage: npm run scaffold:tool -- <tool_id> [--category ${TOOL_CATEGORIES.join('|')}]`;

export interface ScaffoldRequest {
  id: string;
  category: ToolCategory;
}

class ScaffoldRefusal extends Error {}

export function parseScaffoldArgs(argv: string[]): ScaffoldRequest {
  let id: string | undefined;
  let category: string = 'custom';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--category') {
      const value = argv[++i];
      if (!value) throw new ScaffoldRefusal(`--category needs a value; ${USAGE}`);
      category = value;
    } else if (arg.startsWith('-')) {
      throw new ScaffoldRefusal(`unknown option "${arg}"; ${USAGE}`);
    } else if (id === undefined) {
      id = arg;
    } else {
      throw new ScaffoldRefusal(`unexpected argument "${arg}"; ${USAGE}`);
    }
  }
  if (id === undefined) throw new ScaffoldRefusal(`a tool id is required; ${USAGE}`);
  if (!TOOL_ID.test(id)) {
    throw new ScaffoldRefusal(`invalid tool id "${id}": snake_case, 2-64 characters, starting with a letter (e.g. word_count)`);
  }
  if (!TOOL_CATEGORIES.includes(category as ToolCategory)) {
    throw new ScaffoldRefusal(`invalid category "${category}": one of ${TOOL_CATEGORIES.join(', ')}`);
  }
  return { id, category: category as ToolCategory };
}

/** "word_count" → "Word count". */
function displayName(id: string): string {
  const words = id.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function toolSource({ id, category }: ScaffoldRequest): string {
  return `import { z } from 'zod';
import { defineTool, NonRetryableToolError } from './types';

/**
 * ${displayName(id)}: an example tool made by \`npm run scaffold:tool\`. Replace the schemas and \`execute\` with the
 * real work; keep the file name equal to the id. See docs/adding-a-tool.md for the rules (errors, side effects,
 * network access, organization settings).
 */

export default defineTool({
  id: '${id}',
  name: '${displayName(id)}',
  category: '${category}',
  description: 'Example: returns \`text\` (upper-cased when \`uppercase\` is true) and its length.',
  // Written once: the JSON Schema (checked when a workflow is saved and before every call) and the type of
  // \`execute\`'s input are derived from it. strictObject: unknown keys in a node config are refused.
  input: z.strictObject({
    text: z.string().max(100_000).describe('the text to return'),
    uppercase: z.boolean().default(false).describe('upper-case the text'),
  }),
  // Checked after every call; its keys are the node's outputs (\`<node>.text\`, \`<node>.length\`).
  output: z.strictObject({
    text: z.string(),
    length: z.int().min(0),
  }),
  sideEffect: 'none',
  defaultTimeoutMs: 10_000,
  async execute(input) {
    // Retrying cannot fix bad input: say so, and the run fails at once with this code.
    if (!input.text.trim()) throw new NonRetryableToolError('EMPTY_TEXT', 'text is empty');
    const text = input.uppercase ? input.text.toUpperCase() : input.text;
    return { text, length: text.length };
  },
});
`;
}

export function testSource({ id }: ScaffoldRequest): string {
  return `import tool from '../../../activities/tools/${id}';
import { validateToolInput, validateToolOutput } from '../../../lib/tools/validation';
import type { ToolContext } from '../../../activities/tools/types';

const ctx = { attempt: 1, organizationId: 'o', runId: 'r', nodeId: 'n', idempotencyKey: 'r:n', heartbeat: () => undefined, signal: new AbortController().signal } as unknown as ToolContext;

describe('${id}', () => {
  test('returns the text and its length', async () => {
    expect(await tool.execute({ text: 'hello', uppercase: true }, ctx)).toEqual({ text: 'HELLO', length: 5 });
    expect(await tool.execute({ text: 'hello' }, ctx)).toEqual({ text: 'hello', length: 5 });
  });

  test('empty text fails without retry', async () => {
    await expect(tool.execute({ text: '  ' }, ctx)).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
  });

  test('the input schema refuses wrong types and unknown fields', () => {
    expect(validateToolInput(tool, { text: 'x' })).toEqual({ ok: true });
    const bad = validateToolInput(tool, { text: 5, colour: 'red' });
    expect(bad.ok).toBe(false);
  });

  test('the output matches the output schema', async () => {
    expect(validateToolOutput(tool, await tool.execute({ text: 'abc' }, ctx))).toEqual({ ok: true });
  });
});
`;
}

/** Writes both files; returns their paths relative to the repository root. */
export function scaffoldTool(request: ScaffoldRequest, root = ROOT): string[] {
  const files = [
    [path.join('activities', 'tools', `${request.id}.ts`), toolSource(request)],
    [path.join('test', 'unit', 'tools', `${request.id}.test.ts`), testSource(request)],
  ] as const;
  const jsTwin = path.join('activities', 'tools', `${request.id}.js`);
  for (const relative of [...files.map(([p]) => p), jsTwin]) {
    if (existsSync(path.join(root, relative))) throw new ScaffoldRefusal(`${relative} already exists; choose another tool id`);
  }
  // 'wx' refuses to overwrite even if a file appeared since the check.
  for (const [relative, source] of files) writeFileSync(path.join(root, relative), source, { flag: 'wx' });
  return files.map(([p]) => p);
}

function main(argv: string[]): number {
  try {
    const request = parseScaffoldArgs(argv);
    for (const file of scaffoldTool(request)) console.log(`scaffold: created ${file}`);
    console.log(
      `scaffold: tool "${request.id}" (category ${request.category}) is registered by its file: restart the worker to ` +
        `list and run it (the API picks it up from the worker); test it with \`npx jest test/unit/tools/${request.id}.test.ts\`; ` +
        'then `npm run generate:tools` (the built-in descriptors the API uses until a worker has published)',
    );
    return 0;
  } catch (err) {
    if (err instanceof ScaffoldRefusal) {
      console.error(`scaffold: ${err.message}`);
      return 2;
    }
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      console.error(`scaffold: ${(err as Error).message}`);
      return 2;
    }
    throw err;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
