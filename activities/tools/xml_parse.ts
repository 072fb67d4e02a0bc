import { z } from 'zod';
import type { SerializedJson } from '../../lib/serializedJson';
import { parseForTool } from './support/parsing';
import { defineTool } from './types';

/** XML to JSON (lib/textParsers.ts: fast-xml-parser, no entity expansion, DOCTYPE declarations refused). */
export default defineTool({
  id: 'xml_parse',
  name: 'XML processor',
  category: 'data',
  description:
    'Parses XML into JSON (attributes prefixed with `@_` unless `ignore_attributes`). Entity expansion is ' +
    'disabled and DOCTYPE declarations are refused. `always_array` lists tag names always given as arrays.',
  input: z.strictObject({
    text: z.string().max(10 * 1024 * 1024),
    ignore_attributes: z.boolean().optional(),
    attribute_prefix: z.string().max(10).optional(),
    parse_values: z.boolean().optional(),
    always_array: z.array(z.string()).max(100).optional(),
  }),
  output: z.object({ result: z.unknown() }),
  sideEffect: 'none',
  runsLocally: true,
  // Still a local activity (the commands of existing histories stay the same); a large text is parsed off the
  // worker's event loop (support/parsing.ts).
  async execute(input, ctx) {
    const { text, ...options } = input;
    return (await parseForTool({ format: 'xml', text, options }, ctx.organizationId, { wrap: 'result' })) as { result: unknown } | SerializedJson;
  },
});
