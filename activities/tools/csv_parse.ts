import { z } from 'zod';
import { parse } from 'csv-parse/sync';
import { defineTool, NonRetryableToolError } from './types';

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
  async execute(input) {
    const header = input.header ?? true;
    const maxRows = input.max_rows ?? 10_000;
    let records: unknown[];
    try {
      records = parse(input.text, {
        delimiter: input.delimiter ?? ',',
        columns: header,
        skip_empty_lines: input.skip_empty_lines ?? true,
        trim: input.trim ?? false,
        relax_column_count: false,
        to_line: maxRows + (header ? 2 : 1),
      }) as unknown[];
    } catch (err) {
      throw new NonRetryableToolError('INVALID_CSV', (err as Error).message);
    }
    if (records.length > maxRows) throw new NonRetryableToolError('TOO_MANY_ROWS', `more than ${maxRows} rows`);
    const columns = header && records.length ? Object.keys(records[0] as object) : null;
    return { rows: records, count: records.length, columns };
  },
});
