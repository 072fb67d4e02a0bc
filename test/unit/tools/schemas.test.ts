import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { listTools } from '../../../activities/tools/registry';
import { validateToolInput, validateToolOutput } from '../../../lib/tools/validation';
import { defineTool, toolJsonSchema, type ToolContext } from '../../../activities/tools/types';

/**
 * Tool schemas are written once (docs/adding-a-tool.md#schemas-written-once): each tool's input and output are zod
 * schemas, and the JSON Schemas that ajv checks (and the API publishes) are derived from them.
 */

const TOOLS_DIR = path.join(__dirname, '../../../activities/tools');
const ctx = {} as ToolContext;

describe('tool schemas written once', () => {
  test.each(listTools().map((t) => t.id))('%s: its JSON schemas are derived from its zod schemas', (id) => {
    const tool = listTools().find((t) => t.id === id)!;
    expect(tool.input).toBeInstanceOf(z.ZodType);
    expect(tool.output).toBeInstanceOf(z.ZodType);
    expect(tool.inputSchema).toEqual(toolJsonSchema(tool.input!));
    expect(tool.outputSchema).toEqual(toolJsonSchema(tool.output!));
    // Nothing written twice: no hand-written JSON schema nor a separate input interface in the file.
    const source = readFileSync(path.join(TOOLS_DIR, `${id}.ts`), 'utf8');
    expect(source).not.toMatch(/\b(inputSchema|outputSchema)\s*:/);
    expect(source).not.toMatch(/defineTool</);
  });

  test('defineTool derives JSON Schema draft-07: strict objects, optional and defaulted keys, descriptions', () => {
    const tool = defineTool({
      id: 'probe_tool',
      name: 'Probe',
      category: 'custom',
      description: 'd',
      input: z.strictObject({
        text: z.string().max(10).describe('the text'),
        loud: z.boolean().default(false),
        count: z.int().min(1).optional(),
        tags: z.array(z.string()).meta({ uniqueItems: true }).optional(),
      }),
      output: z.object({ n: z.int(), any: z.unknown().optional() }),
      sideEffect: 'none',
      execute: async (input) => ({ n: input.text.length + (input.count ?? 0) }),
    });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', maxLength: 10, description: 'the text' },
        loud: { type: 'boolean', default: false },
        count: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      },
      required: ['text'],
      additionalProperties: false,
    });
    // an integer without bounds of its own carries none (zod's ±MAX_SAFE_INTEGER are left out)
    expect(tool.outputSchema).toEqual({ type: 'object', properties: { n: { type: 'integer' }, any: {} }, required: ['n'] });
    expect(validateToolInput(tool, { text: 'hi' })).toEqual({ ok: true });
    expect(validateToolInput(tool, { text: 'hi', tags: ['a', 'a'] }).ok).toBe(false);
    const bad = validateToolInput(tool, { text: 5, colour: 'red' });
    expect(bad.ok === false && bad.problems.map((p) => p.path).sort()).toEqual(['input.colour', 'input.text']);
    expect(validateToolOutput(tool, { n: 1.5 }).ok).toBe(false);
  });

  test('execute is typed from the schemas', async () => {
    const tool = defineTool({
      id: 'typed_tool',
      name: 'Typed',
      category: 'custom',
      description: 'd',
      input: z.strictObject({ a: z.string(), b: z.int().default(2) }),
      output: z.object({ doubled: z.string() }),
      sideEffect: 'none',
      execute: async (input) => ({ doubled: input.a.repeat(input.b ?? 2) }),
    });
    expect(await tool.execute({ a: 'x' }, ctx)).toEqual({ doubled: 'xx' });
    // @ts-expect-error `a` must be a string: the type comes from the zod schema
    void tool.execute({ a: 1 }, ctx).catch(() => undefined);
  });

  test('a schema JSON Schema cannot describe fails when the tool is defined, not at its first run', () => {
    expect(() =>
      defineTool({
        id: 'bad_tool',
        name: 'Bad',
        category: 'custom',
        description: 'd',
        input: z.strictObject({ when: z.date() }),
        output: z.object({}),
        sideEffect: 'none',
        execute: async () => ({}),
      }),
    ).toThrow();
  });
});
