import { z } from 'zod';
import type { CsvParsed } from '../../lib/textParsers';
import type { SerializedJson } from '../../lib/serializedJson';
import { parseForTool } from './support/parsing';
import { defineTool } from './types';

/** CSV text to rows: objects keyed by the header row (default), or arrays of cells. */
export default defineTool({
  id: 'csv_parse',
  name: 'CSV parser',
  category: 'data',
  description:
    'Parses CSV text. With `header` (default true) rows are objects keyed by the first line, else arrays. ' +
    '`max_rows` (default 10000) caps the output; more rows fail the node.',
  input: z.strictObject({
    text: z.string().max(10 * 1024 * 1024),
    delimiter: z.string().min(1).max(5).optional(),
    header: z.boolean().optional(),
    skip_empty_lines: z.boolean().optional(),
    trim: z.boolean().optional(),
    max_rows: z.int().min(1).max(100_000).optional(),
  }),
  output: z.object({ rows: z.array(z.unknown()), count: z.int(), columns: z.array(z.string()).nullable().optional() }),
  sideEffect: 'none',
  runsLocally: true,
  // Still a local activity (the commands of existing histories stay the same); a large text is parsed off the
  // worker's event loop (support/parsing.ts).
  async execute(input, ctx) {
    const { text, ...options } = input;
    return (await parseForTool({ format: 'csv', text, options }, ctx.organizationId)) as CsvParsed | SerializedJson;
  },
});
