import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { jsonStringEnd } from '../jsonDepth';
import { PermanentContentError } from './errors';
import { docxMarkdown } from './docx';
import { pdfPages } from './pdfText';

/**
 * Text and data extraction per type, over the file's bytes (no storage, no database), shared by the processing
 * activities and the on-demand extract endpoint. PDFs and DOCX files are read in child processes of their own
 * (pdfText.ts, docx.ts).
 */
export { docxMarkdown } from './docx';
export { pdfInfo, pdfPages } from './pdfText';
export interface ExtractedText {
  text: string;
  /** Markdown when the source has structure worth keeping (Markdown itself, DOCX headings and lists). */
  format: 'text' | 'markdown';
  /** Per-page text for paged formats (PDF). */
  pages?: string[];
}

export const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'application/yaml', 'text/yaml', 'application/x-ndjson']);
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XML_TYPES = new Set(['application/xml', 'text/xml']);

export function canExtractText(mime: string): boolean {
  return (
    TEXT_TYPES.has(mime) ||
    mime === 'text/html' ||
    mime === 'application/pdf' ||
    mime === DOCX ||
    mime === 'text/csv' ||
    mime === 'application/json' ||
    XML_TYPES.has(mime) ||
    mime.startsWith('text/')
  );
}

export async function extractText(bytes: Buffer, mime: string): Promise<ExtractedText> {
  if (mime === 'text/markdown') return { text: decode(bytes), format: 'markdown' };
  if (mime === 'text/html') return { text: htmlToText(decode(bytes)), format: 'text' };
  if (mime === 'application/pdf') {
    const pages = await pdfPages(bytes);
    return { text: pages.join('\n\n'), format: 'text', pages };
  }
  if (mime === DOCX) return { text: await docxMarkdown(bytes), format: 'markdown' };
  if (mime === 'text/csv') return { text: csvToText(bytes), format: 'text' };
  if (mime === 'application/json') return { text: leafLines(parseJson(bytes)), format: 'text' };
  if (XML_TYPES.has(mime)) return { text: leafLines(parseXml(bytes)), format: 'text' };
  if (TEXT_TYPES.has(mime) || mime.startsWith('text/')) return { text: decode(bytes), format: 'text' };
  throw new PermanentContentError(`no text extractor for ${mime}`);
}

/**
 * Parsed data costs far more memory than its bytes: a CSV row `a` becomes an object of ~110 bytes of heap for 2
 * bytes of file, so a 100 MB file of tiny rows needs ~5 GB, past the process's heap, and V8 ends a process that runs
 * out of it (the API, or the worker in a retry loop). Files are counted before they are parsed, and one with more
 * values than this is refused: at most ~250 MB of heap, and a few seconds of parsing.
 */
export const MAX_STRUCTURED_VALUES = 1_000_000;
/**
 * Characters of text made from structured data (CSV rows as `column: value` pairs, JSON and XML leaves as `path:
 * value` lines). Column names and paths repeat on every line, so the text can be far larger than the file (two
 * 1 MB column names over 400,000 rows ran a 2 GB heap out); past this the step fails instead.
 */
export const MAX_STRUCTURED_TEXT_CHARS = 20_000_000;

function tooMuchText(what: string): PermanentContentError {
  return new PermanentContentError(
    `${what}: its text would pass ${MAX_STRUCTURED_TEXT_CHARS.toLocaleString('en-US')} characters (the file is stored; split it to search it)`,
    'TOO_MUCH_TEXT',
  );
}

function tooManyValues(what: string): PermanentContentError {
  return new PermanentContentError(
    `${what}: more than ${MAX_STRUCTURED_VALUES.toLocaleString('en-US')} values, too many to parse (the file is stored; split it to query it)`,
    'TOO_MANY_VALUES',
  );
}

/**
 * How many values a JSON text holds (the root, each array element, each object member), counted up to `limit + 1`
 * without parsing: what is inside strings does not count. Malformed text gets some count; JSON.parse refuses it.
 */
export function jsonValuesAtLeast(text: string, limit: number): number {
  let count = 1;
  const inArray: boolean[] = [];
  let afterOpenArray = false; // the next character other than space or `]` starts the array's first element
  for (let i = 0; i < text.length && count <= limit; i++) {
    const c = text.charCodeAt(i);
    if (afterOpenArray) {
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      afterOpenArray = false;
      if (c !== 0x5d) count++;
    }
    if (c === 0x22) i = jsonStringEnd(text, i);
    else if (c === 0x5b || c === 0x7b) {
      inArray.push(c === 0x5b);
      afterOpenArray = c === 0x5b;
      // Nesting deeper than the values allowed is no valid file within them (and the stack must not grow unbounded).
      if (inArray.length > limit) return limit + 1;
    } else if (c === 0x5d || c === 0x7d) inArray.pop();
    else if (c === 0x3a || (c === 0x2c && inArray[inArray.length - 1])) count++; // a member's value, a next element
  }
  return count;
}

/**
 * An upper bound of the elements and attributes an XML text holds: each element opens with `<` and a name, each
 * attribute has an `=` inside a tag. An `=` in text or in a quoted attribute value is not one.
 */
export function xmlValuesAtLeast(text: string, limit: number): number {
  let count = 0;
  let inTag = false;
  let quote = 0; // the quote character of an attribute value being read, or 0
  for (let i = 0; i < text.length && count <= limit; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (inTag) {
      if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3d) count++;
      else if (c === 0x3e) inTag = false;
    } else if (c === 0x3c) {
      const next = text.charCodeAt(i + 1);
      if (next !== 0x2f && next !== 0x21 && next !== 0x3f) {
        count++; // not </, <! or <?
        inTag = true;
      }
    }
  }
  return count;
}

/**
 * Characters of one XML value: an attribute's value or the text between two tags. The value count above does not
 * bound bytes: one element with a 16 MB attribute is one value, and fast-xml-parser's attribute handling spent
 * seconds on it (on the API's event loop, before extraction moved to a child). No document needs more per value.
 */
export const MAX_XML_VALUE_CHARS = 1_000_000;

/** True when an attribute value or a text run of an XML text is longer than `limit` characters. */
export function xmlValueLongerThan(text: string, limit: number): boolean {
  let inTag = false;
  let quote = 0; // the quote character of an attribute value being read, or 0
  let run = 0; // characters of the current attribute value or text run
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
      else if (++run > limit) return true;
    } else if (inTag) {
      if (c === 0x22 || c === 0x27) {
        quote = c;
        run = 0;
      } else if (c === 0x3e) {
        inTag = false;
        run = 0;
      }
    } else if (c === 0x3c) {
      // Comments are no value (and may hold a lone quote); a CDATA section is text.
      const comment = text.startsWith('<!--', i);
      const cdata = !comment && text.startsWith('<![CDATA[', i);
      if (comment || cdata) {
        const end = text.indexOf(comment ? '-->' : ']]>', i);
        const stop = end < 0 ? text.length : end;
        if (cdata && stop - i > limit) return true;
        i = stop + 2;
      } else inTag = true;
      run = 0;
    } else if (++run > limit) return true;
  }
  return false;
}

/** Data for JSONata and field queries: JSON as is, CSV as an array of row objects, XML as an object. */
export function structuredData(bytes: Buffer, mime: string): unknown {
  if (mime === 'application/json') return parseJson(bytes);
  if (mime === 'text/csv') return parseCsvRows(bytes);
  if (XML_TYPES.has(mime)) return parseXml(bytes);
  throw new PermanentContentError(`not structured data (${mime}); JSON, CSV and XML are`);
}

function decode(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

function parseJson(bytes: Buffer): unknown {
  const text = decode(bytes);
  if (jsonValuesAtLeast(text, MAX_STRUCTURED_VALUES) > MAX_STRUCTURED_VALUES) throw tooManyValues('JSON');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new PermanentContentError(`invalid JSON: ${(err as Error).message}`);
  }
}

/**
 * An upper bound of the cells a CSV text holds (csv-parse's defaults: `,` between cells, `"` quotes, a line per
 * record), counted up to `limit + 1`: commas and line ends outside quotes, plus one. Counted before parsing because
 * csv-parse builds each record's whole array of cells first: one line of 45 million commas ran a 2 GB heap out.
 */
export function csvCellsAtLeast(text: string, limit: number): number {
  let count = 1;
  let quoted = false;
  for (let i = 0; i < text.length && count <= limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quoted = !quoted; // a doubled quote inside quotes toggles twice
    else if (!quoted && (c === 0x2c || c === 0x0a)) count++;
  }
  return count;
}

function parseCsvRows(bytes: Buffer): Record<string, string>[] {
  const text = decode(bytes);
  if (csvCellsAtLeast(text, MAX_STRUCTURED_VALUES) > MAX_STRUCTURED_VALUES) throw tooManyValues('CSV');
  try {
    return parseCsv(text, { columns: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as Record<string, string>[];
  } catch (err) {
    throw new PermanentContentError(`invalid CSV: ${(err as Error).message}`);
  }
}

/** Lines joined up to MAX_STRUCTURED_TEXT_CHARS; past it, `tooMuchText`. */
class BoundedText {
  private readonly lines: string[] = [];
  private chars = 0;

  constructor(private readonly what: string) {}

  add(line: string): void {
    this.chars += line.length + 1;
    if (this.chars > MAX_STRUCTURED_TEXT_CHARS) throw tooMuchText(this.what);
    this.lines.push(line);
  }

  text(): string {
    return this.lines.join('\n');
  }
}

function csvToText(bytes: Buffer): string {
  // One line per row, "column: value" pairs: readable in snippets and searchable by column names and values.
  const out = new BoundedText('CSV');
  for (const row of parseCsvRows(bytes)) {
    let line = '';
    for (const [column, value] of Object.entries(row)) {
      line += `${line ? '; ' : ''}${column}: ${value}`;
      if (line.length > MAX_STRUCTURED_TEXT_CHARS) throw tooMuchText('CSV');
    }
    out.add(line);
  }
  return out.text();
}

function parseXml(bytes: Buffer): unknown {
  const text = decode(bytes);
  if (xmlValuesAtLeast(text, MAX_STRUCTURED_VALUES) > MAX_STRUCTURED_VALUES) throw tooManyValues('XML');
  if (xmlValueLongerThan(text, MAX_XML_VALUE_CHARS)) {
    throw new PermanentContentError(
      `XML: a value (an attribute or a text) longer than ${MAX_XML_VALUE_CHARS.toLocaleString('en-US')} characters (the file is stored; split it to query it)`,
      'XML_VALUE_TOO_LONG',
    );
  }
  try {
    return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', processEntities: false }).parse(text, true);
  } catch (err) {
    throw new PermanentContentError(`invalid XML: ${(err as Error).message ?? String(err)}`);
  }
}

/** Characters, words (runs of non-space) and lines of a text, counted without building arrays of them. */
export function textStats(text: string): { chars: number; words: number; lines: number } {
  let words = 0;
  let lines = 1;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) lines++;
    // The whitespace of /\s/ that matters in text: space, tab, line breaks, form feed, vertical tab, NBSP.
    const space = c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a) || c === 0x3000 || c === 0x1680 || c === 0x202f || c === 0x205f;
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return { chars: text.length, words, lines };
}

/**
 * `a.b[0].c: value` lines of every leaf, with an explicit stack (parsed JSON can be nested hundreds of thousands
 * deep, past the call stack) and at most MAX_STRUCTURED_TEXT_CHARS of text.
 */
function leafLines(root: unknown): string {
  const out = new BoundedText('the structured data');
  const stack: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}[${i}]` });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        stack.push({ value: child, path: path ? `${path}.${key}` : key });
      }
    } else if (value !== null && value !== undefined && value !== '') {
      const text = String(value);
      out.add(path ? `${path}: ${text}` : text);
    }
  }
  return out.text();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Elements whose content is not text; from the opening tag to their closing tag, both dropped. */
const HIDDEN_ELEMENTS = ['script', 'style', 'noscript', 'template'];
/** Tags that end a line: closing block elements and `<br>`. Tested on one tag's inside (between `<` and `>`). */
const LINE_BREAK_TAG = /^(\/(p|div|h[1-6]|li|tr|br|section|article|header|footer|pre|blockquote)\s*|br\s*\/?)$/i;

/**
 * Text of an HTML page: tags dropped (a space each; block ends and `<br>` a newline), script, style, noscript and
 * template content and comments dropped, entities decoded, spaces collapsed, each line trimmed, empty lines dropped.
 *
 * One pass with indexOf, linear in the page's length whatever it holds. The regular expressions this replaces
 * (`<!--[\s\S]*?-->`, `<[^>]+>`, `\s*\n\s*`) backtracked: each unclosed `<!--` or `<` scanned to the end of the
 * page and a run of `\r` was rescanned from each of its characters, so 40,000 `\r` took 1.1 s and a 1 MB page of
 * unclosed comments minutes, in the worker's event loop, again at every retry.
 */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  /** A hidden element's closing tag searched from some point and not found: it is not found from any later point. */
  const unclosed = new Set<string>();
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      parts.push(html.slice(i));
      break;
    }
    parts.push(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 2); // from +2: `<!-->` and `<!--->` close themselves, as in a browser
      parts.push(' ');
      if (end < 0) break; // an unclosed comment hides the rest of the page, as in a browser
      i = end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt + 1);
    if (gt < 0) {
      parts.push(html.slice(lt)); // no tag can close after here: the rest is text
      break;
    }
    if (gt === lt + 1) {
      parts.push('<'); // `<>` is text
      i = lt + 1;
      continue;
    }
    const inside = html.slice(lt + 1, gt);
    const hidden = HIDDEN_ELEMENTS.find((name) => inside.slice(0, name.length).toLowerCase() === name);
    if (hidden && !unclosed.has(hidden)) {
      const closing = new RegExp(`</${hidden}\\s*>`, 'gi');
      closing.lastIndex = gt + 1;
      const found = closing.exec(html);
      if (found) {
        parts.push(' ');
        i = found.index + found[0].length;
        continue;
      }
      unclosed.add(hidden); // then only the opening tag is dropped, like any tag
    }
    parts.push(LINE_BREAK_TAG.test(inside) ? '\n' : ' ');
    i = gt + 1;
  }
  const text = parts
    .join('')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/[ \t\f\v]+/g, ' ');
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed) lines.push(trimmed);
  }
  return lines.join('\n');
}
