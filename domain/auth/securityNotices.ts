import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { newSignInNotice, passwordChangedNotice, twoFactorNotice, type RequestFacts } from '../../lib/emails/security';
import type { RenderedNotice } from '../../lib/emails/notice';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mailer';
import type { SecretBox } from '../../lib/secrets';
import { recordAudit } from '../audit/record';
import { networkOf } from '../../lib/net/networkPrefix';
import { deliverMail, enqueueMail } from '../notifications/mailOutbox';
import type { RequestMeta } from '../principals';
import { recordSignInDevice } from './deviceQueries';

/** A user's sign-in is written to the audit log of each organization they belong to, up to this many. */
const SIGN_IN_AUDIT_ORGANIZATIONS = 100;

export interface SecurityNoticeDeps {
  db: Db;
  box: SecretBox;
  mailer: Mailer;
  logger: Logger;
}

/** The device of a sign-in: its user agent without version numbers (an update is the same device) and its network. */
export function deviceFingerprint(meta: Pick<RequestMeta, 'ip' | 'userAgent'>): { fingerprint: string; network: string | null } {
  const agent = (meta.userAgent ?? '').replace(/\d+(?:[._]\d+)*/g, '#').slice(0, 500);
  const network = networkOf(meta.ip || null);
  return { fingerprint: createHash('sha256').update(`${agent}\n${network ?? ''}`).digest('hex'), network };
}

const factsOf = (meta: RequestMeta): RequestFacts => ({ at: new Date(), ip: meta.ip || null, userAgent: meta.userAgent });

/**
 * Security notices (docs/auth.md#security-notices): mail to a person about their own account, written to the mail
 * outbox in the transaction of the change (so it goes out exactly when the change commits, and is retried if SMTP
 * is down), sent right after the commit. Also the sign-in record every organization the person belongs to sees.
 */
export function createSecurityNotices(deps: SecurityNoticeDeps) {
  const { box } = deps;

  function queue(trx: Knex.Transaction, to: string, topic: string, notice: RenderedNotice): Promise<string> {
    return enqueueMail(trx, box, { organizationId: null, topic, topicId: null, to, ...notice });
  }

  return {
    passwordChanged(trx: Knex.Transaction, user: { email: string }, meta: RequestMeta, how: 'changed' | 'reset'): Promise<string> {
      return queue(trx, user.email, 'security:password', passwordChangedNotice({ ...factsOf(meta), how }));
    },

    twoFactorChanged(trx: Knex.Transaction, user: { email: string }, meta: RequestMeta, enabled: boolean): Promise<string> {
      return queue(trx, user.email, 'security:two_factor', twoFactorNotice({ ...factsOf(meta), enabled }));
    },

    /** Registration: the first device is remembered, nothing is mailed. */
    async deviceRegistered(trx: Knex.Transaction, userId: string, meta: RequestMeta): Promise<void> {
      await recordSignInDevice(trx, { userId, ...deviceFingerprint(meta), userAgent: meta.userAgent });
    },

    /**
     * In the sign-in's transaction (sessions.create's hook): `member.signed_in` in the audit log of each of the
     * user's organizations, the device remembered, and a mail when it is new (not for the first device the account
     * is seen on). Returns the mails to deliver after the commit.
     */
    async signedIn(
      trx: Knex.Transaction,
      user: { id: string; email: string },
      meta: RequestMeta,
      input: { sessionId: string; method: string },
    ): Promise<string[]> {
      // The device remembered and the user's organizations read in one round trip (deviceQueries.ts).
      const device = deviceFingerprint(meta);
      const seen = await recordSignInDevice(trx, { userId: user.id, ...device, userAgent: meta.userAgent }, SIGN_IN_AUDIT_ORGANIZATIONS);
      for (const organizationId of seen.organizations) {
        await recordAudit(trx, {
          organizationId,
          actor: { type: 'user', id: user.id, ip: meta.ip, userAgent: meta.userAgent },
          action: 'member.signed_in',
          target: { type: 'user', id: user.id },
          after: { method: input.method, sessionId: input.sessionId },
        });
      }
      if (!seen.isNew || seen.firstDevice) return [];
      return [await queue(trx, user.email, 'security:sign_in', newSignInNotice({ ...factsOf(meta), method: input.method }))];
    },

    /** After the commit: sends what the transaction queued (a failure stays in the outbox for the sweeper). */
    deliver(ids: readonly string[]): void {
      for (const id of ids) void deliverMail(deps, id);
    },
  };
}

export type SecurityNotices = ReturnType<typeof createSecurityNotices>;
