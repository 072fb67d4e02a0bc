import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LAYERS, ROOT, sourceFiles, withoutComments } from '../../helpers/sourceFiles';

/**
 * Every table has exactly one module that writes it, in the domain layer (issue 20, docs/conventions.md#layers).
 * Writers are found by reading the source: a knex builder on a table (`db('runs')`, `trx(TABLE)` with a constant of
 * the same file) whose statement inserts, updates or deletes, and INSERT / UPDATE / DELETE in SQL strings. Migrations
 * are not writers; tests and benchmarks are outside the layers.
 */
const BUILDER = /\b(?:db|trx|tx|knex|client|deps\.db|this\.db|d\.db)\s*\(\s*(?:(['"`])([a-z_]+)\1|([A-Z_][A-Z0-9_]*))\s*\)/g;
const WRITE_CALL = /\.(?:insert|update|del|delete|increment|decrement|merge|upsert)\s*\(/;
const STRING = /(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
const SQL_WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+"?([a-z_]+)"?\s+(?:set|values|where|as|select|\(|on|using|returning)\b/gi;

/** Tables a file writes. */
export function tablesWrittenBy(source: string): Set<string> {
  const code = withoutComments(source);
  const constants = new Map<string, string>();
  for (const m of code.matchAll(/\bconst\s+([A-Z_][A-Z0-9_]*)\s*=\s*['"]([a-z_]+)['"]/g)) constants.set(m[1]!, m[2]!);
  const tables = new Set<string>();
  for (const m of code.matchAll(BUILDER)) {
    const table = m[2] ?? constants.get(m[3] ?? '');
    if (!table) continue;
    const statement = code.slice(m.index! + m[0].length).split(/;\s*$/m)[0]!.slice(0, 1500);
    if (WRITE_CALL.test(statement)) tables.add(table);
  }
  for (const s of code.matchAll(STRING)) {
    for (const w of s[2]!.matchAll(SQL_WRITE)) tables.add(w[1]!.toLowerCase());
  }
  return tables;
}

function writersByTable(): Map<string, string[]> {
  const writers = new Map<string, string[]>();
  for (const layer of LAYERS) {
    for (const file of sourceFiles(path.join(ROOT, layer))) {
      for (const table of tablesWrittenBy(readFileSync(file, 'utf8'))) {
        writers.set(table, [...(writers.get(table) ?? []), path.relative(ROOT, file)]);
      }
    }
  }
  return writers;
}

describe('table writers', () => {
  test('the scanner finds builder, constant and SQL writes, and ignores reads and prose', () => {
    const sample = `
      const TABLE = 'idempotency_keys';
      // update the runs table later
      await db('workflow_runs').where({ id }).update({ status });
      await trx(TABLE).insert(row);
      await db('users').where({ id }).first();
      await db.raw('UPDATE organizations SET settings = ? WHERE id = ?', [s, id]);
      await db.raw(\`delete from sessions where user_id = ?\`, [u]);
    `;
    expect([...tablesWrittenBy(sample)].sort()).toEqual(['idempotency_keys', 'organizations', 'sessions', 'workflow_runs']);
  });

  test('every table is written by exactly one module, in the domain layer', () => {
    const problems: string[] = [];
    const writers = writersByTable();
    for (const [table, files] of [...writers].sort(([a], [b]) => a.localeCompare(b))) {
      if (files.length !== 1) problems.push(`${table}: ${files.length} writers (${files.join(', ')})`);
      else if (!files[0]!.startsWith('domain/')) problems.push(`${table}: written outside the domain layer (${files[0]})`);
    }
    expect(problems).toEqual([]);
    // The scan must see the platform's main tables, or it proves nothing.
    for (const table of ['users', 'workflow_runs', 'content', 'audit_logs', 'organizations']) expect(writers.has(table)).toBe(true);
  });
});
