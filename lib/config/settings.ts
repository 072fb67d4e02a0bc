import { z } from 'zod';

/**
 * The machinery of the configuration spec (lib/config/spec.ts): a tree shaped like `Config` whose leaves say where
 * each value comes from, so that every key is written once, with its schema, its default and its doc comment, at
 * the place it takes in `Config`. The tree gives the environment schema (`envSchema`), the list of keys
 * (`envKeys`) and the values (`valuesOf`); `Values<typeof spec>` is their type.
 */

/**
 * How a key is documented: the README's configuration table and `.env.example` are generated from this
 * (`npm run generate:config-docs`, scripts/generate-config-docs.ts; test/unit/configKeys.test.ts checks they are current).
 */
export interface KeyDoc {
  /** What the key does: the README table's "Meaning" (keys next to each other with the same meaning share a row). */
  readonly meaning: string;
  /** The README's "Default" when it is not `example` in backticks (or "(unset)" without one). */
  readonly default?: string;
  /** The value `.env.example` gives (none: left empty, so the built-in default applies). */
  readonly example?: string;
  /** A comment `.env.example` writes above the key. */
  readonly note?: string;
}

/** One environment variable: its name, the schema from its text (undefined when unset) to the value, its doc. */
export interface Setting<T> {
  readonly kind: 'setting';
  readonly env: string;
  readonly schema: z.ZodType<T>;
  readonly doc: KeyDoc;
}

/** Values of several settings combined into one (the API's metrics listener from its host and port). */
export interface Combined<S extends SpecTree, T> {
  readonly kind: 'combined';
  readonly parts: S;
  combine(values: Values<S>): T;
}

/** A value no variable sets (the enterprise plan's quotas). */
export interface Fixed<T> {
  readonly kind: 'fixed';
  readonly value: T;
}

export type SpecNode = Setting<unknown> | Combined<SpecTree, unknown> | Fixed<unknown> | SpecTree;
export interface SpecTree {
  readonly [field: string]: SpecNode;
}

/** The value a spec node produces: the Config type is `Values<typeof spec>` (with cross-section defaults applied). */
export type Values<S> =
  S extends Setting<infer T>
    ? T
    : S extends Combined<SpecTree, infer T>
      ? T
      : S extends Fixed<infer T>
        ? T
        : { -readonly [K in keyof S]: Values<S[K]> };

export function setting<S extends z.ZodType>(env: string, schema: S, doc: KeyDoc): Setting<z.output<S>> {
  return { kind: 'setting', env, schema: schema as z.ZodType<z.output<S>>, doc };
}

export function combined<S extends SpecTree, T>(parts: S, combine: (values: Values<S>) => T): Combined<S, T> {
  return { kind: 'combined', parts, combine };
}

export function fixed<T>(value: T): Fixed<T> {
  return { kind: 'fixed', value };
}

/** A leaf of the tree (its `kind` is a string), not a subtree (whose fields are nodes). */
function isLeaf(node: SpecNode): node is Setting<unknown> | Combined<SpecTree, unknown> | Fixed<unknown> {
  return typeof node.kind === 'string';
}

function settingsOf(node: SpecNode): Setting<unknown>[] {
  if (!isLeaf(node)) return Object.values(node).flatMap(settingsOf);
  if (node.kind === 'setting') return [node];
  return node.kind === 'combined' ? settingsOf(node.parts) : [];
}

/** Every key's documentation, in spec order, with the top-level section of the spec it is in ('' at the root). */
export function keyDocs(spec: SpecTree): { env: string; section: string; doc: KeyDoc }[] {
  return Object.entries(spec).flatMap(([field, node]) =>
    settingsOf(node).map((s) => ({ env: s.env, section: isLeaf(node) ? '' : field, doc: s.doc })),
  );
}

/** Every environment variable of the spec, in spec order. */
export function envKeys(spec: SpecTree): string[] {
  return settingsOf(spec).map((s) => s.env);
}

/** One object schema over the variables, in spec order: its issues name the variable (`SERVICE_PORT: ...`). */
export function envSchema(spec: SpecTree): z.ZodObject<Record<string, z.ZodType>> {
  return z.object(Object.fromEntries(settingsOf(spec).map((s) => [s.env, s.schema])));
}

/** The spec's values from the parsed variables. */
export function valuesOf<S extends SpecTree>(spec: S, parsed: Record<string, unknown>): Values<S> {
  return valueOf(spec, parsed) as Values<S>;
}

function valueOf(node: SpecNode, parsed: Record<string, unknown>): unknown {
  if (!isLeaf(node)) return Object.fromEntries(Object.entries(node).map(([field, child]) => [field, valueOf(child, parsed)]));
  if (node.kind === 'setting') return parsed[node.env];
  if (node.kind === 'fixed') return node.value;
  return node.combine(valueOf(node.parts, parsed) as Values<SpecTree>);
}
