import { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } from 'apache-arrow';

/**
 * One LanceDB table per embedding model (`v_<model>_<dimensions>`): a table holds vectors of one dimension only,
 * and a query must be compared with vectors of the model that embedded it. All organizations share a model's
 * table; every read, write and delete carries an `organization_id` predicate (see store.ts), and bitmap indexes
 * on that column and on `kind` keep the filters cheap.
 *
 * Rows are either `chunk` (a piece of the extracted text, with its text for keyword search and snippets) or
 * `document` (one vector per content: the normalised mean of its chunks, or a vector the caller supplied).
 */
export type VectorKind = 'chunk' | 'document';
export type VectorSource = 'computed' | 'provided';

export interface VectorRow {
  id: string;
  organization_id: string;
  content_id: string;
  version: number;
  kind: VectorKind;
  source: VectorSource;
  chunk_index: number;
  text: string;
  model: string;
  /** Float32Array: a view into the vectors of a whole document (lib/embeddings/flatVectors.ts). */
  vector: number[] | Float32Array;
}

export function vectorSchema(dimensions: number): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('organization_id', new Utf8(), false),
    new Field('content_id', new Utf8(), false),
    new Field('version', new Int32(), false),
    new Field('kind', new Utf8(), false),
    new Field('source', new Utf8(), false),
    new Field('chunk_index', new Int32(), false),
    new Field('text', new Utf8(), false),
    new Field('model', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

const TABLE_PREFIX = 'v_';

export function tableNameFor(model: string, dimensions: number): string {
  const slug = model.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 80) || 'model';
  return `${TABLE_PREFIX}${slug}_${dimensions}`;
}

export function isVectorTable(name: string): boolean {
  return name.startsWith(TABLE_PREFIX);
}

/** Values in LanceDB filters are SQL string literals: ids are UUIDs, but quote defensively anyway. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
