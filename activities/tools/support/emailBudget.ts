import type { Db } from '../../../db/knex';
import {
  deleteEmailSend,
  insertEmailSend,
  lockEmailBudget,
  purgeOldEmailSends,
  sumRecentEmailRecipients,
} from '../../../domain/notifications/queries';
import { NonRetryableToolError } from '../types';

/**
 * The per-organization budget of the platform's own mail (table `email_sends`, domain/notifications/queries.ts): at
 * most `limit` recipients per rolling 24 hours. A send first reserves its recipients, then sends; a send that fails
 * releases its reservation (nothing went out, so a retry may use it again). A worker that dies between the two keeps
 * the reservation: the budget errs on the side of the recipients.
 *
 * Reservations of one organization are serialized by a transaction-scoped advisory lock, so concurrent nodes
 * cannot both see room for the last recipients.
 */

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
    await lockEmailBudget(trx, input.organizationId);
    // Housekeeping of this organization's old rows, under the same lock.
    await purgeOldEmailSends(trx, input.organizationId);
    const used = await sumRecentEmailRecipients(trx, input.organizationId);
    if (used + input.recipients > input.limit) {
      throw new NonRetryableToolError(
        'EMAIL_BUDGET_EXCEEDED',
        `the organization may send e-mail to at most ${input.limit} recipients per rolling 24 hours ` +
          `(TOOLS_EMAIL_DAILY_RECIPIENTS); ${used} used, this message has ${input.recipients}`,
      );
    }
    return insertEmailSend(trx, {
      organizationId: input.organizationId,
      runId: input.runId,
      nodeId: input.nodeId,
      recipients: input.recipients,
    });
  });
}

/** Gives a reservation back (the message was not sent). */
export async function releaseEmailReservation(db: Db, reservation: EmailReservation): Promise<void> {
  await deleteEmailSend(db, reservation.id);
}
