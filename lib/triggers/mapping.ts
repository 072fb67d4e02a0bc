/**
 * Mapping of trigger inputs to run parameters (docs/triggers.md#parameter-mapping). A mapping is
 * `{ <parameter>: "<root>.<path>" }`; roots are, for webhooks, `body`, `query` and `headers` (lower-case names), and
 * for events `event` (the whole envelope), `data` (the payload), `type` and `id`. Without a mapping, the top-level
 * fields of the body (or event payload) that have the name of a declared parameter are taken; nothing else.
 */
export function readPath(root: Record<string, unknown>, reference: string): unknown {
  let value: unknown = root;
  for (const part of reference.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(part)) return undefined;
      value = value[Number(part)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(value, part)) return undefined;
      value = (value as Record<string, unknown>)[part];
    }
  }
  return value;
}

export function mapParameters(
  mapping: Record<string, string> | undefined,
  roots: Record<string, unknown>,
  defaultRoot: unknown,
  declared: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (mapping) {
    for (const [name, reference] of Object.entries(mapping)) {
      const value = readPath(roots, reference);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  if (defaultRoot && typeof defaultRoot === 'object' && !Array.isArray(defaultRoot)) {
    for (const name of declared) {
      if (Object.prototype.hasOwnProperty.call(defaultRoot, name)) out[name] = (defaultRoot as Record<string, unknown>)[name];
    }
  }
  return out;
}
