import type { Db } from '../../../db/knex';
import { NonRetryableToolError } from '../types';

/**
 * The per-organization budget of the platform's own mail (table `email_sends`, migration 0902): at most `limit`
 * recipients per rolling 24 hours. A send first reserves its recipients, then sends; a send that fails releases
 * its reservation (nothing went out, so a retry may use it again). A worker that dies between the two keeps the
 * reservation: the budget errs on the side of the recipients.
 *
 * Reservations of one organization are serialized by a transaction-scoped advisory lock, so concurrent nodes
 * cannot both see room for the last recipients.
 */

export const EMAIL_BUDGET_WINDOW = '24 hours';

export interface EmailReservation {
  id: string;
}

export interface ReserveInput {
  organizationId: string;
  runId: string;
  nodeId: string;
  recipients: number;
  /** Recipients allowed per rolling 24 hours for one organization (TOOLS_EMAIL_DAILY_RECIPIENTS). */
  limit: number;
}

export async function reserveEmailRecipients(db: Db, input: ReserveInput): Promise<EmailReservation> {
  return db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended('email_sends:' || ?::text, 0))", [input.organizationId]);
    // Housekeeping of this organization's old rows, under the same lock (the index covers it).
    await trx('email_sends')
      .where('organization_id', input.organizationId)
      .andWhereRaw(`created_at < now() - interval '${EMAIL_BUDGET_WINDOW}'`)
      .delete();
    const row = await trx('email_sends')
      .where('organization_id', input.organizationId)
      .andWhereRaw(`created_at >= now() - interval '${EMAIL_BUDGET_WINDOW}'`)
      .sum<{ used: string | null }>('recipients as used')
      .first();
    const used = Number(row?.used ?? 0);
    if (used + input.recipients > input.limit) {
      throw new NonRetryableToolError(
        'EMAIL_BUDGET_EXCEEDED',
        `the organization may send e-mail to at most ${input.limit} recipients per rolling 24 hours ` +
          `(TOOLS_EMAIL_DAILY_RECIPIENTS); ${used} used, this message has ${input.recipients}`,
      );
    }
    const [inserted] = await trx('email_sends')
      .insert({
        organization_id: input.organizationId,
        run_id: input.runId,
        node_id: input.nodeId,
        recipients: input.recipients,
      })
      .returning<{ id: string }[]>('id');
    return { id: inserted!.id };
  });
}

/** Gives a reservation back (the message was not sent). */
export async function releaseEmailReservation(db: Db, reservation: EmailReservation): Promise<void> {
  await db('email_sends').where('id', reservation.id).delete();
}
