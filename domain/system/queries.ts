import type { Db } from '../../db/knex';

/** SQL of `system_checks`, the table that proves the worker path end to end: the one module that writes it. */

export interface SystemCheckRow {
  id: string;
  created_at: Date;
}

/** Idempotent under retries: the caller supplies the id, and a second write only replaces the note. */
export async function upsertSystemCheck(db: Db, check: { id: string; note: string }): Promise<SystemCheckRow> {
  const [row] = (await db('system_checks')
    .insert({ id: check.id, note: check.note })
    .onConflict('id')
    .merge({ note: check.note })
    .returning(['id', 'created_at'])) as SystemCheckRow[];
  return row!;
}
