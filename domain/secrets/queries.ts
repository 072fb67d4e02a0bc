import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { SecretBox } from '../../lib/secrets';

/**
 * All SQL of the organization secrets (the only writer of `organization_secrets`). Every function takes the
 * organization id. Values are sealed bound to their organization and name (`sealContext`), so a value copied to
 * another organization's row does not open.
 */

export interface SecretRow {
  id: string;
  organization_id: string;
  name: string;
  last4: string;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const LISTED = ['id', 'organization_id', 'name', 'last4', 'created_by', 'updated_by', 'created_at', 'updated_at'];

export const sealContext = (organizationId: string, name: string): string => `organization_secret:${organizationId}:${name}`;

export async function listSecrets(db: Db, organizationId: string): Promise<SecretRow[]> {
  return db('organization_secrets').where({ organization_id: organizationId }).orderBy('name').select(LISTED);
}

export async function countSecrets(db: Db | Knex.Transaction, organizationId: string): Promise<number> {
  const row = await db('organization_secrets').where({ organization_id: organizationId }).count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

/** Inserts or replaces; `created` tells which happened. */
export async function upsertSecret(
  trx: Knex.Transaction,
  input: { organizationId: string; name: string; valueEnc: string; last4: string; actorId: string | null },
): Promise<{ row: SecretRow; created: boolean }> {
  const result = await trx.raw(
    `INSERT INTO organization_secrets (organization_id, name, value_enc, last4, created_by, updated_by)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, name) DO UPDATE
       SET value_enc = EXCLUDED.value_enc, last4 = EXCLUDED.last4, updated_by = EXCLUDED.updated_by, updated_at = now()
     RETURNING ${LISTED.join(', ')}, (xmax = 0) AS created`,
    [input.organizationId, input.name, input.valueEnc, input.last4, input.actorId, input.actorId],
  );
  const { created, ...row } = (result as { rows: (SecretRow & { created: boolean })[] }).rows[0]!;
  return { row, created };
}

export async function deleteSecret(trx: Knex.Transaction, organizationId: string, name: string): Promise<SecretRow | null> {
  const [row] = await trx('organization_secrets').where({ organization_id: organizationId, name }).delete().returning(LISTED);
  return (row as SecretRow | undefined) ?? null;
}

/** Which of `names` the organization has (save-time check of `{{secret.NAME}}` references). */
export async function existingSecretNames(db: Db, organizationId: string, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows: { name: string }[] = await db('organization_secrets')
    .where({ organization_id: organizationId })
    .whereIn('name', names)
    .select('name');
  return new Set(rows.map((r) => r.name));
}

/**
 * The plain values of `names` that exist in the organization. Only the tool activity calls this, right before a
 * tool runs (activities/runs/secretReferences.ts); no route returns a value.
 */
export async function readSecretValues(
  deps: { db: Db; box: SecretBox },
  organizationId: string,
  names: string[],
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  if (names.length === 0) return values;
  const rows: { name: string; value_enc: string; last4: string }[] = await deps
    .db('organization_secrets')
    .where({ organization_id: organizationId })
    .whereIn('name', names)
    .select('name', 'value_enc', 'last4');
  const { box } = deps;
  for (const row of rows) {
    values.set(row.name, box.open({ enc: row.value_enc, last4: row.last4 }, sealContext(organizationId, row.name)));
  }
  return values;
}
