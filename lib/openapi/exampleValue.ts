/**
 * An example value for a JSON Schema (OpenAPI 3.1), for the success answers of the API's document: Swagger UI and
 * client generators otherwise make up values from the types alone (`-9007199254740991` for an integer without
 * bounds, `"string"` for every text). Values come from the schema first (`examples`, `default`, `const`, `enum`,
 * `format`, bounds), then from the property's name (an `email` is an address, a `createdAt` a time), so the
 * example reads like a real answer and still validates against its schema (test/unit/openapiDocument.test.ts
 * checks every one with Ajv). Deterministic: the same document every time.
 */
export type JsonSchema = Record<string, unknown>;

const MAX_DEPTH = 24;
const FIXED_TIME = '2026-11-29T09:30:00.000Z';

/** A stable UUID per property name, so ids that belong together (an organization's) read alike. */
function uuidFor(name: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
  const hex = hash.toString(16).padStart(8, '0');
  return `${hex}-7c1e-4a2b-9d3f-${(hex + hex).slice(0, 12)}`;
}

function stringFor(schema: JsonSchema, name: string): string {
  const format = schema.format as string | undefined;
  const lower = name.toLowerCase();
  if (format === 'uuid' || /(^|_)id$|Id$/.test(name)) {
    if (format === 'uuid' || !schema.pattern) return uuidFor(name || 'id');
  }
  if (format === 'date-time' || /(At|_at|Time|time)$/.test(name)) return FIXED_TIME;
  if (format === 'date') return FIXED_TIME.slice(0, 10);
  if (format === 'email' || lower.includes('email')) return 'ann@example.com';
  if (format === 'uri' || format === 'url' || lower.endsWith('url') || lower.endsWith('uri')) return 'https://loom.example.com/api/v1/resource';
  if (lower.includes('sha256')) return '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
  if (lower.includes('token')) return 'eyJhbGciOiJIUzI1NiJ9.example.signature';
  if (lower === 'code') return 'NOT_FOUND';
  if (lower === 'status') return 'active';
  if (lower.includes('email')) return 'ann@example.com';
  if (lower === 'slug') return 'acme';
  if (lower === 'name' || lower.endsWith('name')) return 'Acme';
  if (lower === 'title') return 'Quarterly report';
  if (lower.includes('description') || lower === 'message' || lower === 'summary') return 'An example';
  if (lower.includes('model')) return 'wink-sg-100d-sif-v1';
  if (lower.includes('mime') || lower.includes('contenttype')) return 'application/pdf';
  if (lower === 'filename') return 'report.pdf';
  if (lower === 'period') return '2026-11';
  return name ? `example ${name}` : 'example';
}

/** Values tried, in order, when the first guess does not match the schema's pattern (identifiers, codes, slugs). */
const PATTERN_FALLBACKS = ['node_1', 'acme', 'ACME_1', 'a1', 'A', '1', 'v1', 'example.com', 'x'];

function fitString(value: string, schema: JsonSchema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fit = (text: string) => {
    let out = text.length > max ? text.slice(0, max) : text;
    while (out.length < min) out += 'x';
    return out;
  };
  if (typeof schema.pattern !== 'string') return fit(value);
  let pattern: RegExp;
  try {
    pattern = new RegExp(schema.pattern, 'u');
  } catch {
    return fit(value);
  }
  return [value, ...PATTERN_FALLBACKS].map(fit).find((candidate) => pattern.test(candidate)) ?? fit(value);
}

function numberFor(schema: JsonSchema, name: string, integer: boolean): number {
  const lower = name.toLowerCase();
  let value = 1;
  if (lower.includes('limit')) value = 20;
  else if (/bytes|size/.test(lower)) value = 1024;
  else if (/ms$|duration|seconds/.test(lower)) value = 250;
  else if (lower.includes('score')) value = 0.82;
  else if (/count|total|used|done|attempts/.test(lower)) value = 3;
  else if (lower.includes('version')) value = 1;
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : -Infinity;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 0.01) : Infinity;
  value = Math.min(Math.max(value, min), max);
  return integer ? Math.round(value) : value;
}

/** `schemas`: components.schemas, for `$ref`s of the form `#/components/schemas/<name>`. */
export function exampleValue(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>, name = '', depth = 0, seen: ReadonlySet<string> = new Set()): unknown {
  if (!schema || depth > MAX_DEPTH) return null;
  const ref = schema.$ref as string | undefined;
  if (ref) {
    const target = ref.replace('#/components/schemas/', '');
    // A recursive schema ends in an empty value rather than going around forever.
    if (seen.has(target)) return null;
    return exampleValue(schemas[target], schemas, name, depth, new Set([...seen, target]));
  }
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if ('default' in schema && schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (!Array.isArray(options) || options.length === 0) continue;
    if (key === 'allOf') return Object.assign({}, ...options.map((o) => exampleValue(o, schemas, name, depth + 1, seen) as object));
    const chosen = options.find((o) => o.type !== 'null') ?? options[0];
    return exampleValue(chosen, schemas, name, depth + 1, seen);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : schema.items ? 'array' : types[0]);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(properties)) out[key] = exampleValue(value, schemas, key, depth + 1, seen);
      return out;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const item = exampleValue(schema.items as JsonSchema | undefined, schemas, name.replace(/s$/, ''), depth + 1, seen);
      return Array.from({ length: Math.max(1, Math.min(min, 3)) }, () => item);
    }
    case 'string':
      return fitString(stringFor(schema, name), schema);
    case 'integer':
      return numberFor(schema, name, true);
    case 'number':
      return numberFor(schema, name, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}
