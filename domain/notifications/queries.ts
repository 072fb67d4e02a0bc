import type { Db } from '../../db/knex';

/**
 * SQL of `email_sends` (migration 0902), the recipients the platform's own mail reached per organization: the one
 * module that writes it. The budget rule that reads it lives with the e-mail tool
 * (activities/tools/support/emailBudget.ts).
 */

/** The rolling window the budget counts over; older rows are housekeeping. */
export const EMAIL_BUDGET_WINDOW = '24 hours';

/** Serializes the budget decisions of one organization until the transaction ends; others never wait. */
export async function lockEmailBudget(trx: Db, organizationId: string): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended('email_sends:' || ?::text, 0))", [organizationId]);
}

/** Deletes the organization's rows older than the window (the index on (organization_id, created_at) covers it). */
export async function purgeOldEmailSends(trx: Db, organizationId: string): Promise<void> {
  await trx('email_sends')
    .where('organization_id', organizationId)
    .andWhereRaw(`created_at < now() - interval '${EMAIL_BUDGET_WINDOW}'`)
    .delete();
}

/** Recipients the organization reached (or reserved) within the window. */
export async function sumRecentEmailRecipients(trx: Db, organizationId: string): Promise<number> {
  const row = await trx('email_sends')
    .where('organization_id', organizationId)
    .andWhereRaw(`created_at >= now() - interval '${EMAIL_BUDGET_WINDOW}'`)
    .sum<{ used: string | null }>('recipients as used')
    .first();
  return Number(row?.used ?? 0);
}

export async function insertEmailSend(
  trx: Db,
  values: { organizationId: string; runId: string; nodeId: string; recipients: number },
): Promise<{ id: string }> {
  const [inserted] = await trx('email_sends')
    .insert({
      organization_id: values.organizationId,
      run_id: values.runId,
      node_id: values.nodeId,
      recipients: values.recipients,
    })
    .returning<{ id: string }[]>('id');
  return { id: inserted!.id };
}

export async function deleteEmailSend(db: Db, id: string): Promise<void> {
  await db('email_sends').where('id', id).delete();
}
