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
