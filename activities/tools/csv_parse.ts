import { parse } from 'csv-parse/sync';
import { defineTool, NonRetryableToolError } from './types';

interface CsvInput {
  text: string;
  delimiter?: string;
  header?: boolean;
  skip_empty_lines?: boolean;
  trim?: boolean;
  max_rows?: number;
}

/** CSV text to rows: objects keyed by the header row (default), or arrays of cells. */
export default defineTool<CsvInput, { rows: unknown[]; count: number; columns: string[] | null }>({
  id: 'csv_parse',
  name: 'CSV parser',
  category: 'data',
  description:
    'Parses CSV text. With `header` (default true) rows are objects keyed by the first line, else arrays. ' +
    '`max_rows` (default 10000) caps the output; more rows fail the node.',
  inputSchema: {
    type: 'object',
    required: ['text'],
    additionalProperties: false,
    properties: {
      text: { type: 'string', maxLength: 10 * 1024 * 1024 },
      delimiter: { type: 'string', minLength: 1, maxLength: 5 },
      header: { type: 'boolean' },
      skip_empty_lines: { type: 'boolean' },
      trim: { type: 'boolean' },
      max_rows: { type: 'integer', minimum: 1, maximum: 100_000 },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['rows', 'count'],
    properties: { rows: { type: 'array' }, count: { type: 'integer' }, columns: { type: ['array', 'null'] } },
  },
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
