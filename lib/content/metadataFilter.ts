/**
 * Metadata conditions of content filters (docs/content.md#filters), parsed before any SQL is built. A key is a
 * metadata field, or a dotted path into nested objects (`a.b`); its value is either a JSON value the field must
 * contain (as before: `{"author": "Ann"}`), or an object of operators:
 * `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte` (numbers compare as numbers, strings as text, e.g. ISO dates),
 * `$in`, `$nin` (a list of up to 100 values), `$exists` (true or false). An unknown operator, or operators mixed
 * with plain keys, is a problem (400), never a silent "no match". Pure: the SQL is the content queries'.
 */

export const METADATA_OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists'] as const;
export type MetadataOperator = (typeof METADATA_OPERATORS)[number];

export type MetadataCondition =
  | { kind: 'contains'; path: string[]; value: unknown }
  | { kind: 'compare'; path: string[]; op: '$eq' | '$ne'; value: unknown }
  | { kind: 'order'; path: string[]; op: '$gt' | '$gte' | '$lt' | '$lte'; value: number | string }
  | { kind: 'member'; path: string[]; op: '$in' | '$nin'; values: unknown[] }
  | { kind: 'exists'; path: string[]; exists: boolean };

export interface MetadataProblem {
  /** where, under the `metadata` filter: the key, then the operator */
  at: string[];
  problem: string;
}

const MAX_PATH_SEGMENTS = 10;
const MAX_SET = 100;
const SEGMENT = /^[^.]{1,200}$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isScalar = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The conditions of a `metadata` filter, and its problems. */
export function parseMetadataFilter(filter: Record<string, unknown>): { conditions: MetadataCondition[]; problems: MetadataProblem[] } {
  const conditions: MetadataCondition[] = [];
  const problems: MetadataProblem[] = [];
  for (const [key, value] of Object.entries(filter)) {
    const at = [key];
    const path = key.split('.');
    if (key.startsWith('$')) {
      problems.push({ at, problem: `an operator needs a field: {"<field>": {"${key}": ...}}` });
      continue;
    }
    if (path.length > MAX_PATH_SEGMENTS || !path.every((segment) => SEGMENT.test(segment))) {
      problems.push({ at, problem: `a field name or a dotted path of up to ${MAX_PATH_SEGMENTS} non-empty names` });
      continue;
    }
    const operators = isPlainObject(value) ? Object.keys(value).filter((k) => k.startsWith('$')) : [];
    if (!operators.length) {
      conditions.push({ kind: 'contains', path, value });
      continue;
    }
    const ops = value as Record<string, unknown>;
    if (operators.length !== Object.keys(ops).length) {
      problems.push({ at, problem: 'either a value to contain or operators ($gt, $in, ...), not both' });
      continue;
    }
    for (const op of operators) {
      const operand = ops[op];
      const where = [key, op];
      switch (op) {
        case '$eq':
        case '$ne':
          conditions.push({ kind: 'compare', path, op, value: operand });
          break;
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          if ((typeof operand === 'number' && Number.isFinite(operand)) || typeof operand === 'string') conditions.push({ kind: 'order', path, op, value: operand });
          else problems.push({ at: where, problem: 'a number or a string (strings compare as text: ISO dates order correctly)' });
          break;
        case '$in':
        case '$nin':
          if (Array.isArray(operand) && operand.length >= 1 && operand.length <= MAX_SET && operand.every(isScalar)) conditions.push({ kind: 'member', path, op, values: operand });
          else problems.push({ at: where, problem: `a list of 1 to ${MAX_SET} strings, numbers, booleans or nulls` });
          break;
        case '$exists':
          if (typeof operand === 'boolean') conditions.push({ kind: 'exists', path, exists: operand });
          else problems.push({ at: where, problem: 'true or false' });
          break;
        default:
          problems.push({ at: where, problem: `unknown operator (known: ${METADATA_OPERATORS.join(', ')})` });
      }
    }
  }
  return { conditions, problems };
}

/** A nested object that contains `value` at `path`: what `@>` containment tests. */
export function nestedAt(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), value);
}
