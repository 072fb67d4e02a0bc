import { MAX_VALUE_DEPTH } from './limits';
import { ExpressionError } from './errors';

/**
 * Conversions between JSON data and CEL values. CEL distinguishes int (bigint here) from double; JSON does not.
 * An integral JSON number becomes a CEL int so `count + 1` works; results convert back to plain JSON.
 * Iterative with an explicit depth bound, so hostile data cannot overflow the stack.
 */
export function toCel(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) throw new ExpressionError('EXPRESSION_LIMIT', `data nested deeper than ${MAX_VALUE_DEPTH}`);
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((v) => toCel(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__') continue;
      out[k] = toCel(v, depth + 1);
    }
    return out;
  }
  return value === undefined ? null : value;
}

export function fromCel(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) throw new ExpressionError('EXPRESSION_LIMIT', `result nested deeper than ${MAX_VALUE_DEPTH}`);
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => fromCel(v, depth + 1));
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) if (String(k) !== '__proto__') out[String(k)] = fromCel(v, depth + 1);
    return out;
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return value.toISOString();
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== '__proto__') out[k] = fromCel(v, depth + 1);
    return out;
  }
  // CEL durations, timestamps wrappers, optionals...: their text form.
  return String(value);
}
