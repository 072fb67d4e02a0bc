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

/** What to parse a text as. */
export type ParseFormat =
  | { format: 'xml'; options: XmlOptions }
  | { format: 'csv'; options: CsvOptions }
  /** JSON as http_request and content_read read it: JSON.parse, nothing more. */
  | { format: 'json'; options: Record<string, never> };

export type ParseRequest = ParseFormat & { text: string };

export interface CsvParsed {
  rows: unknown[];
  count: number;
  columns: string[] | null;
}

/** A text the parser refuses: a stable code (the tool's error code) and a message about the text, never a stack. */
export class TextParseError extends Error {
  constructor(
    readonly code: 'INVALID_XML' | 'INVALID_CSV' | 'INVALID_JSON' | 'TOO_MANY_ROWS' | 'TOO_DEEP',
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

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new TextParseError('INVALID_JSON', (err as Error).message);
  }
}

/** A request parsed, or its refusal as data (`failed`), so it crosses a process boundary as plain JSON. */
export function parseRequest(request: ParseRequest): { value: unknown } | { failed: { code: TextParseError['code']; message: string } } {
  try {
    if (request.format === 'json') return { value: parseJsonText(request.text) };
    return { value: request.format === 'xml' ? parseXmlText(request.text, request.options) : parseCsvText(request.text, request.options) };
  } catch (err) {
    if (err instanceof TextParseError) return { failed: { code: err.code, message: err.message } };
    throw err;
  }
}

/**
 * Where a parsed value goes in a tool's output: under `wrap` beside the `around` keys (http_request's `body` beside
 * its status, headers and URL), or, without `wrap`, the value itself (csv_parse).
 */
export interface OutputShape {
  wrap?: string;
  around?: Record<string, unknown>;
}

/** A parsing tool's output: the parsed value placed as `shape` says. */
export function parsedOutput(value: unknown, shape: OutputShape = {}): unknown {
  return shape.wrap ? { ...shape.around, [shape.wrap]: value } : value;
}
