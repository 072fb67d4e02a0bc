import { z } from 'zod';
import { documentationOf } from '../../lib/documentedAs';

/**
 * Named schemas for the OpenAPI document, from the zod schemas themselves: a schema given an id with
 * `.meta({ id: 'Workflow' })` becomes `#/components/schemas/Workflow`, and every place that uses it a `$ref`.
 *
 * A schema reads differently as a request (`input`: fields with defaults are optional) and as an answer (`output`:
 * they are always there). When an id is used both ways and the two differ (directly or through a schema it refers
 * to), the answer keeps the id and the request side is named `<id>Input`; otherwise both share the id.
 *
 * Each conversion writes placeholders (`loom:<io>:<id>`) that `finish()` turns into component references once every
 * use is known, so names never depend on the order routes are declared in.
 */

export type JsonSchema = Record<string, unknown>;
export type Io = 'input' | 'output';

const PLACEHOLDER = 'loom:';
const DEFS_PREFIX = '#/$defs/';
const COMPONENTS_PREFIX = '#/components/schemas/';

type Key = `${Io}:${string}`;
const idOf = (key: Key): string => key.slice(key.indexOf(':') + 1);

function walk(value: unknown, visit: (node: JsonSchema) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
  } else if (value && typeof value === 'object') {
    visit(value as JsonSchema);
    for (const child of Object.values(value)) walk(child, visit);
  }
}

/** `{ anyOf: [{}, { type: 'null' }] }` (zod's `unknown().nullable()`) says nothing a bare `{}` does not. */
function dropVacuousAnyOf(node: JsonSchema): void {
  const anyOf = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.some((m) => m && typeof m === 'object' && Object.keys(m).length === 0)) {
    delete node.anyOf;
  }
}

export class SchemaComponents {
  /** Raw component bodies (with placeholders) by `<io>:<id>`. */
  private readonly bodies = new Map<Key, JsonSchema>();
  private readonly texts = new Map<Key, string>();
  private names: Map<Key, string> | undefined;

  /** The JSON Schema of `schema` on the `io` side, with named schemas as placeholders for component references. */
  convert(schema: z.core.$ZodType, io: Io): JsonSchema {
    if (this.names) throw new Error('SchemaComponents: convert() after finish()');
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      override: (ctx) => this.override(ctx.zodSchema, ctx.jsonSchema as JsonSchema, io),
    }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    for (const [id, body] of Object.entries(defs)) this.keep(`${io}:${id}`, this.placeholders(body, io));
    return this.placeholders(json, io);
  }

  private override(zodSchema: z.core.$ZodType, json: JsonSchema, io: Io): void {
    const documented = documentationOf(zodSchema);
    if (documented) {
      const description = json.description;
      const shown = this.convert(documented.schema, documented.io ?? io);
      for (const key of Object.keys(json)) delete json[key];
      Object.assign(json, shown);
      if (description !== undefined && shown.description === undefined) json.description = description;
      return;
    }
    const def = zodSchema._zod.def as { type: string; discriminator?: string };
    if (def.type === 'union' && typeof def.discriminator === 'string') {
      json.discriminator = { propertyName: def.discriminator };
    }
  }

  /** zod's `#/$defs/<id>` references become placeholders carrying the side they were converted for. */
  private placeholders(json: JsonSchema, io: Io): JsonSchema {
    walk(json, (node) => {
      if (typeof node.$ref === 'string' && node.$ref.startsWith(DEFS_PREFIX)) {
        node.$ref = `${PLACEHOLDER}${io}:${decodeURIComponent(node.$ref.slice(DEFS_PREFIX.length))}`;
      }
    });
    return json;
  }

  private keep(key: Key, body: JsonSchema): void {
    const text = JSON.stringify(body);
    const known = this.texts.get(key);
    if (known !== undefined && known !== text) {
      throw new Error(`OpenAPI: two different schemas are named "${idOf(key)}" (${key})`);
    }
    this.texts.set(key, text);
    this.bodies.set(key, body);
  }

  /** Whether two kept components read the same, following the references each holds. */
  private same(a: Key, b: Key, assumed = new Set<string>()): boolean {
    if (a === b || assumed.has(`${a}|${b}`)) return true;
    assumed.add(`${a}|${b}`);
    const refs = (key: Key): Key[] => {
      const out: Key[] = [];
      walk(this.bodies.get(key), (node) => {
        if (typeof node.$ref === 'string' && node.$ref.startsWith(PLACEHOLDER)) out.push(node.$ref.slice(PLACEHOLDER.length) as Key);
      });
      return out;
    };
    const shape = (key: Key): string => (this.texts.get(key) ?? '').replace(/"loom:(input|output):/g, '"loom:');
    if (shape(a) !== shape(b)) return false;
    const ra = refs(a);
    const rb = refs(b);
    return ra.every((r, i) => this.same(r, rb[i] as Key, assumed));
  }

  private nameOf(key: Key): string {
    const name = this.names?.get(key);
    if (!name) throw new Error(`OpenAPI: no component for ${key}`);
    return name;
  }

  /**
   * Names every component, replaces the placeholders in `document` (which holds the results of `convert`) and
   * returns `components.schemas`.
   */
  finish(document: unknown): Record<string, JsonSchema> {
    const names = new Map<Key, string>();
    for (const key of this.bodies.keys()) {
      const io = key.slice(0, key.indexOf(':')) as Io;
      const id = idOf(key);
      const other: Key = `${io === 'input' ? 'output' : 'input'}:${id}`;
      const split = io === 'input' && this.bodies.has(other) && !this.same(key, other);
      names.set(key, split ? `${id}Input` : id);
    }
    this.names = names;

    const schemas: Record<string, JsonSchema> = {};
    const owner = new Map<string, Key>();
    // `output:` keys first: a schema that reads the same on both sides keeps its answer's body
    for (const [key, body] of [...this.bodies].sort(([a], [b]) => (a < b ? 1 : -1))) {
      const name = this.nameOf(key);
      const taken = owner.get(name);
      if (taken) {
        if (idOf(taken) === idOf(key)) continue; // one schema that reads the same on both sides
        throw new Error(`OpenAPI: the component name ${name} is used by ${taken} and ${key}`);
      }
      owner.set(name, key);
      schemas[name] = body;
    }
    const resolve = (node: JsonSchema): void => {
      if (typeof node.$ref === 'string' && node.$ref.startsWith(PLACEHOLDER)) {
        node.$ref = COMPONENTS_PREFIX + this.nameOf(node.$ref.slice(PLACEHOLDER.length) as Key);
      }
      dropVacuousAnyOf(node);
    };
    walk(document, resolve);
    walk(schemas, resolve);
    const discriminate = (node: JsonSchema): void => discriminatorMapping(node, schemas);
    walk(schemas, discriminate);
    walk(document, discriminate);
    return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * `discriminator.mapping` from each member's constant: without it, clients take the member's component name for the
 * discriminator's value. A union with an inline member cannot have a discriminator in OpenAPI: it is dropped there.
 */
function discriminatorMapping(node: JsonSchema, schemas: Record<string, JsonSchema>): void {
  const discriminator = node.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (!discriminator) return;
  const members = (node.oneOf ?? node.anyOf) as JsonSchema[] | undefined;
  const mapping: Record<string, string> = {};
  for (const member of members ?? []) {
    const ref = member.$ref;
    const target = typeof ref === 'string' && ref.startsWith(COMPONENTS_PREFIX) ? schemas[ref.slice(COMPONENTS_PREFIX.length)] : undefined;
    const value = (target?.properties as Record<string, JsonSchema> | undefined)?.[discriminator.propertyName]?.const;
    if (typeof value !== 'string' || typeof ref !== 'string') {
      delete node.discriminator;
      return;
    }
    mapping[value] = ref;
  }
  discriminator.mapping = mapping;
}
