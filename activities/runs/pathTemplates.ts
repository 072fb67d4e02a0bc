/**
 * Templates that are one path into the scope (`${nodes.big.result}`, `${params.list}`, `${item.id}`): read directly,
 * as a `from` binding reads its value, instead of by the expression sandbox. The sandbox caps each expression's
 * result at 1 MB, while a binding carries what the stored-value limits allow (32 MiB): the same value written as a
 * template failed where the binding worked. Only a whole string that is a path qualifies, and only when every key
 * on it exists as an own property; anything else (missing keys included, so their errors stay the sandbox's) is
 * left to the sandbox. Values read here are put back after the sandbox rendered the rest, so text inside them is
 * never taken for a template.
 */

const PATH_TEMPLATE = /^\$\{\s*([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*\}$/;
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** The value at a path template, or `undefined` when `text` is not one or the path does not lead to a value. */
export function pathValue(text: string, scope: Record<string, unknown>): { value: unknown } | undefined {
  const match = PATH_TEMPLATE.exec(text);
  if (!match) return undefined;
  let current: unknown = scope;
  for (const key of match[1]!.split('.')) {
    if (FORBIDDEN.has(key) || current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined ? undefined : { value: current };
}

type Path = (string | number)[];

/**
 * `value` with its path templates taken out (null in their place) for the sandbox, and a function that puts their
 * values into what the sandbox rendered.
 */
export function takeOutPathTemplates(value: unknown, scope: Record<string, unknown>): { rest: unknown; putBack: (rendered: unknown) => unknown } {
  const found: { at: Path; value: unknown }[] = [];
  const walk = (node: unknown, at: Path): unknown => {
    if (typeof node === 'string') {
      const read = pathValue(node, scope);
      if (!read) return node;
      found.push({ at, value: read.value });
      return null;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...at, i]));
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, [...at, k])]));
    return node;
  };
  const rest = walk(value, []);
  const putBack = (rendered: unknown): unknown => {
    let result = rendered;
    for (const { at, value: read } of found) {
      if (at.length === 0) {
        result = read;
        continue;
      }
      let parent = result as Record<string | number, unknown>;
      for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      parent[at[at.length - 1]!] = read;
    }
    return result;
  };
  return { rest, putBack };
}
