import { setImmediate } from 'node:timers/promises';
import { joinBuffers, sliceEnd } from './largeBytes';

/**
 * JSON.stringify as UTF-8 bytes, byte for byte the same, with the event loop turning while long strings are
 * serialized. JSON.stringify of a 10 MB string holds the loop ~35 ms, and Buffer.from of the result ~8 ms more: on
 * the worker, whose loop every tenant's activities and workflow tasks share, that is a whole run's latency for
 * someone else (issue 40). Strings of at least SLICE_CHARS, as the value itself or as a member of a plain object
 * (`content_read`'s `content`, a text passed on), are serialized a slice at a time; anything else in one call.
 */
const SLICE_CHARS = 512 * 1024;

const QUOTE = Buffer.from('"');

const isLongString = (value: unknown): value is string => typeof value === 'string' && value.length >= SLICE_CHARS;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** True when serializeJson would take turns: the value is a long string, or a plain object with one as a member. */
export function hasLongStrings(value: unknown): boolean {
  return isLongString(value) || (isPlainObject(value) && Object.values(value).some(isLongString));
}

async function pushString(text: string, parts: Buffer[]): Promise<void> {
  parts.push(QUOTE);
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start, SLICE_CHARS);
    parts.push(Buffer.from(JSON.stringify(text.slice(start, end)).slice(1, -1), 'utf8'));
    start = end;
    if (start < text.length) await setImmediate();
  }
  parts.push(QUOTE);
}

/** `Buffer.from(JSON.stringify(value ?? null))`, taking turns over long strings. */
export async function serializeJson(value: unknown): Promise<Buffer> {
  if (!hasLongStrings(value)) return Buffer.from(JSON.stringify(value ?? null), 'utf8');
  const parts: Buffer[] = [];
  if (isLongString(value)) {
    await pushString(value, parts);
    return joinBuffers(parts);
  }
  parts.push(Buffer.from('{'));
  let first = true;
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    // What JSON.stringify leaves out of an object (undefined, functions, symbols) stays out.
    const json = isLongString(member) ? null : (JSON.stringify(member) as string | undefined);
    if (json === undefined) continue;
    parts.push(Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`, 'utf8'));
    first = false;
    if (json === null) await pushString(member as string, parts);
    else parts.push(Buffer.from(json, 'utf8'));
  }
  parts.push(Buffer.from('}'));
  return joinBuffers(parts);
}

/**
 * JSON.parse of a large text, with the event loop turning every TURN_MS. A stored value of 10 MB of small objects
 * takes JSON.parse 100-500 ms in one call; here containers larger than PIECE_CHARS are taken apart member by member,
 * runs of members that fit in a piece are parsed by JSON.parse itself, and the loop gets a turn between pieces. The
 * same value as JSON.parse (own `__proto__` members included, the last of duplicate keys winning), or its SyntaxError.
 */
const PIECE_CHARS = 256 * 1024;
const TURN_MS = 5;

const [QUOTE_CODE, BACKSLASH, COMMA, COLON, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = ['"', '\\', ',', ':', '[', ']', '{', '}'].map((c) =>
  c.charCodeAt(0),
) as [number, number, number, number, number, number, number, number];

const isSpace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

function syntaxError(at: number): SyntaxError {
  return new SyntaxError(`Unexpected token in JSON at position ${at}`);
}

/** The index after the closing quote of the string that opens at `at`. */
function stringEnd(text: string, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw syntaxError(at);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/**
 * The index after the value that starts at `at`, or -1 when it is a container not closed within `limit` characters.
 * A scalar's end is found whatever its length (JSON.parse takes a long string in stride).
 */
function valueEnd(text: string, at: number, limit: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE_CODE) return stringEnd(text, at);
  if (first !== OPEN_ARRAY && first !== OPEN_OBJECT) {
    let end = at;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code === COMMA || code === CLOSE_ARRAY || code === CLOSE_OBJECT || isSpace(code)) break;
      end += 1;
    }
    return end;
  }
  const stop = Math.min(text.length, at + limit);
  let depth = 0;
  for (let i = at; i < stop; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE_CODE) i = stringEnd(text, i) - 1;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) depth += 1;
    else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** `object[key] = value` as JSON.parse does it: an own data property, even for `__proto__`. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/** Where a container's members go: a run of them as JSON text (without the brackets), or one parsed on its own. */
interface Members {
  keyed: boolean;
  run(piece: string): void;
  one(key: string, value: unknown): void;
}

class CooperativeParser {
  private lastTurn = performance.now();

  constructor(private readonly text: string) {}

  private async turn(): Promise<void> {
    if (performance.now() - this.lastTurn < TURN_MS) return;
    await setImmediate();
    this.lastTurn = performance.now();
  }

  /** The value that starts at `at` (after any space) and the index after it. */
  async valueAt(at: number): Promise<[unknown, number]> {
    const start = skipSpace(this.text, at);
    const end = valueEnd(this.text, start, PIECE_CHARS);
    if (end >= 0) {
      const value = JSON.parse(this.text.slice(start, end)) as unknown;
      await this.turn();
      return [value, end];
    }
    return this.text.charCodeAt(start) === OPEN_ARRAY ? this.arrayAt(start) : this.objectAt(start);
  }

  /**
   * The members of the container opening at `at`: runs of members that fit in a piece are parsed together by
   * JSON.parse (`[` + the run + `]`, or `{` + it + `}`), a member too large for one is taken apart in turn.
   */
  private async members(at: number, close: number, into: Members): Promise<number> {
    const { text } = this;
    let pos = skipSpace(text, at + 1);
    if (text.charCodeAt(pos) === close) return pos + 1;
    // The run of members not parsed yet, from the first one's start to the last one's end.
    let runStart = -1;
    let runEnd = -1;
    const flush = async (): Promise<void> => {
      if (runStart < 0) return;
      into.run(text.slice(runStart, runEnd));
      runStart = -1;
      await this.turn();
    };
    for (;;) {
      const memberStart = pos;
      let key = '';
      if (into.keyed) {
        if (text.charCodeAt(pos) !== QUOTE_CODE) throw syntaxError(pos);
        const keyEnd = stringEnd(text, pos);
        key = JSON.parse(text.slice(pos, keyEnd)) as string;
        const colon = skipSpace(text, keyEnd);
        if (text.charCodeAt(colon) !== COLON) throw syntaxError(colon);
        pos = skipSpace(text, colon + 1);
      }
      const end = valueEnd(text, pos, PIECE_CHARS);
      if (end < 0) {
        await flush();
        const [value, after] = await this.valueAt(pos);
        into.one(key, value);
        pos = after;
      } else {
        if (runStart >= 0 && end - runStart > PIECE_CHARS) await flush();
        if (runStart < 0) runStart = memberStart;
        runEnd = end;
        pos = end;
      }
      pos = skipSpace(text, pos);
      const next = text.charCodeAt(pos);
      if (next === COMMA) {
        pos = skipSpace(text, pos + 1);
        continue;
      }
      if (next !== close) throw syntaxError(pos);
      await flush();
      return pos + 1;
    }
  }

  private async arrayAt(at: number): Promise<[unknown, number]> {
    const out: unknown[] = [];
    const end = await this.members(at, CLOSE_ARRAY, {
      keyed: false,
      run: (piece) => {
        for (const value of JSON.parse(`[${piece}]`) as unknown[]) out.push(value);
      },
      one: (_key, value) => out.push(value),
    });
    return [out, end];
  }

  private async objectAt(at: number): Promise<[unknown, number]> {
    const out: Record<string, unknown> = {};
    const end = await this.members(at, CLOSE_OBJECT, {
      keyed: true,
      run: (piece) => {
        for (const [key, value] of Object.entries(JSON.parse(`{${piece}}`) as Record<string, unknown>)) setMember(out, key, value);
      },
      one: (key, value) => setMember(out, key, value),
    });
    return [out, end];
  }
}

/** JSON.parse(text), taking turns with the event loop when the text is large (see PIECE_CHARS). */
export async function parseJson(text: string): Promise<unknown> {
  if (text.length <= PIECE_CHARS) return JSON.parse(text) as unknown;
  const [value, end] = await new CooperativeParser(text).valueAt(0);
  if (skipSpace(text, end) !== text.length) throw syntaxError(end);
  return value;
}
