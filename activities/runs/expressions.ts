import { evaluate as celEvaluate } from '@marcbachmann/cel-js';

/**
 * STAND-IN until `lib/expressions` (owned by the definitions engineer) lands: the runs activities call only
 * `evaluate` and `render` below, so switching is a two-line change here. CEL via @marcbachmann/cel-js; integers come
 * back as BigInt and are turned into numbers so values stay JSON.
 */

export type ExpressionScope = Record<string, unknown>;

function toJson(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), toJson(v)]));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  }
  return value;
}

export function evaluate(text: string, scope: ExpressionScope): unknown {
  return toJson(celEvaluate(text, scope));
}

const WHOLE = /^\$\{([^}]*)\}$/;
const PART = /\$\{([^}]*)\}/g;

/** Renders `${...}` in every string of a value; a string that is one whole template keeps the value's type. */
export function render(value: unknown, scope: ExpressionScope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return evaluate(whole[1]!, scope);
    return value.replace(PART, (_m, expr: string) => {
      const v = evaluate(expr, scope);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => render(v, scope));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, scope)]));
  }
  return value;
}
