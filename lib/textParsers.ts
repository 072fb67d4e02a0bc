import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * The parsing tools' work (xml_parse, csv_parse), pure, so that it runs where the caller puts it: in the calling
 * thread for small texts, in an expression sandbox process for large ones (lib/expressions/sandbox#parseText), with
 * the same results and the same failures either way.
 */
export interface XmlOptions {
  ignore_attributes?: boolean;
  attribute_prefix?: string;
  parse_values?: boolean;
  always_array?: string[];
}

export interface CsvOptions {
  delimiter?: string;
  header?: boolean;
  skip_empty_lines?: boolean;
  trim?: boolean;
  max_rows?: number;
}

export type ParseRequest = { format: 'xml'; text: string; options: XmlOptions } | { format: 'csv'; text: string; options: CsvOptions };

export interface CsvParsed {
  rows: unknown[];
  count: number;
  columns: string[] | null;
}

/** A text the parser refuses: a stable code (the tool's error code) and a message about the text, never a stack. */
export class TextParseError extends Error {
  constructor(
    readonly code: 'INVALID_XML' | 'INVALID_CSV' | 'TOO_MANY_ROWS',
    message: string,
  ) {
    super(message);
    this.name = 'TextParseError';
  }
}

/**
 * XML to JSON with fast-xml-parser. Entity expansion is off (no billion-laughs, no external entities): entities
 * stay as written, except the five predefined ones are not decoded either. DOCTYPE declarations are refused.
 */
export function parseXmlText(text: string, options: XmlOptions): unknown {
  if (/<!DOCTYPE/i.test(text)) throw new TextParseError('INVALID_XML', 'DOCTYPE declarations are not accepted');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new TextParseError('INVALID_XML', `${valid.err.msg} (line ${valid.err.line})`);
  const arrays = new Set(options.always_array ?? []);
  const parser = new XMLParser({
    ignoreAttributes: options.ignore_attributes ?? false,
    attributeNamePrefix: options.attribute_prefix ?? '@_',
    parseTagValue: options.parse_values ?? true,
    parseAttributeValue: options.parse_values ?? false,
    processEntities: false,
    htmlEntities: false,
    isArray: (name) => arrays.has(name),
  });
  return parser.parse(text) as unknown;
}

/** CSV text to rows: objects keyed by the header row (default), or arrays of cells; at most `max_rows` (10,000). */
export function parseCsvText(text: string, options: CsvOptions): CsvParsed {
  const header = options.header ?? true;
  const maxRows = options.max_rows ?? 10_000;
  let records: unknown[];
  try {
    records = parseCsv(text, {
      delimiter: options.delimiter ?? ',',
      columns: header,
      skip_empty_lines: options.skip_empty_lines ?? true,
      trim: options.trim ?? false,
      relax_column_count: false,
      to_line: maxRows + (header ? 2 : 1),
    }) as unknown[];
  } catch (err) {
    throw new TextParseError('INVALID_CSV', (err as Error).message);
  }
  if (records.length > maxRows) throw new TextParseError('TOO_MANY_ROWS', `more than ${maxRows} rows`);
  const columns = header && records.length ? Object.keys(records[0] as object) : null;
  return { rows: records, count: records.length, columns };
}

/** A request parsed, or its refusal as data (`failed`), so it crosses a process boundary as plain JSON. */
export function parseRequest(request: ParseRequest): { value: unknown } | { failed: { code: TextParseError['code']; message: string } } {
  try {
    return { value: request.format === 'xml' ? parseXmlText(request.text, request.options) : parseCsvText(request.text, request.options) };
  } catch (err) {
    if (err instanceof TextParseError) return { failed: { code: err.code, message: err.message } };
    throw err;
  }
}

/** A parsing tool's output: the parsed value under `wrap` (xml_parse's `result`), or the value itself (csv_parse). */
export function parsedOutput(value: unknown, wrap?: string): unknown {
  return wrap ? { [wrap]: value } : value;
}
