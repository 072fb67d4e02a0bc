import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mailer';
import type { SecretBox } from '../../lib/secrets';

/**
 * The platform's mail outbox (table `mail_outbox`, migration 1140; this module alone writes it). A service that
 * mails because of a change writes the message with `enqueueMail` in the change's transaction, and after commit
 * calls `deliverMail` (outside any transaction): SMTP never holds a database connection, a row lock or a
 * transaction, and a message whose first send fails (SMTP down, the process died after commit) is sent by the
 * worker's sweeper (`deliverDueMail`) with backoff. At least once: a process that dies between the SMTP answer and
 * the row's deletion sends it again.
 */

export interface OutgoingMail {
  organizationId: string | null;
  /** What the mail is about: an unsent older mail about the same topic and id is dropped (it is stale). */
  topic: string;
  topicId: string | null;
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of the same message (the text part stays first for clients that show plain text). */
  html?: string;
}

export interface MailOutboxDeps {
  db: Db;
  mailer: Mailer;
  box: SecretBox;
  logger: Logger;
}

/** Attempts before a message is given up (logged as an error); backoff doubles from 30 s up to an hour. */
export const MAIL_MAX_ATTEMPTS = 12;
/** The lease a sender takes before sending; longer than the mailer's own timeouts (5 s connect, 10 s socket). */
const LEASE_SECONDS = 60;

interface MailRow {
  id: string;
  organization_id: string | null;
  recipient: string;
  subject: string;
  sealed_text: string;
  sealed_html: string | null;
  attempts: number;
}

/** The sealed bodies are bound to the row: a value copied to another row does not open. */
const sealContext = (id: string): string => `mail_outbox:${id}`;
const sealHtmlContext = (id: string): string => `mail_outbox:${id}:html`;

/** Writes the message in `trx` (the transaction of the change that causes it); returns its id for `deliverMail`. */
export async function enqueueMail(trx: Db, box: SecretBox, mail: OutgoingMail): Promise<string> {
  if (mail.topicId) await trx('mail_outbox').where({ topic: mail.topic, topic_id: mail.topicId }).delete();
  const id = randomUUID();
  await trx('mail_outbox').insert({
    id,
    organization_id: mail.organizationId,
    topic: mail.topic,
    topic_id: mail.topicId,
    recipient: mail.to,
    subject: mail.subject,
    sealed_text: box.seal(mail.text, sealContext(id)).enc,
    sealed_html: mail.html === undefined ? null : box.seal(mail.html, sealHtmlContext(id)).enc,
  });
  return id;
}

/** Drops the unsent mail about a topic (a revoked invitation's mail must not go out after the revocation). */
export async function dropMail(trx: Db, topic: string, topicId: string): Promise<void> {
  await trx('mail_outbox').where({ topic, topic_id: topicId }).delete();
}

/**
 * Claims the row when it is due, in one statement (no transaction stays open): the lease moves `next_attempt_at`
 * past the send, so another sender skips it, and a sender that dies leaves it due again after the lease.
 */
async function claim(db: Db, id: string): Promise<MailRow | undefined> {
  const [row] = await db('mail_outbox')
    .where('id', id)
    .andWhere('next_attempt_at', '<=', db.fn.now())
    .update({ attempts: db.raw('attempts + 1'), next_attempt_at: db.raw(`now() + interval '${LEASE_SECONDS} seconds'`) })
    .returning<MailRow[]>(['id', 'organization_id', 'recipient', 'subject', 'sealed_text', 'sealed_html', 'attempts']);
  return row;
}

function backoffSeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/** Sends one message if it is due and unclaimed; true when it was sent. Never throws: failures stay in the row. */
export async function deliverMail(deps: MailOutboxDeps, id: string): Promise<boolean> {
  const { db, logger } = deps;
  try {
    const row = await claim(db, id);
    if (!row) return false;
    try {
      const text = deps.box.open({ enc: row.sealed_text, last4: '' }, sealContext(row.id));
      const html = row.sealed_html === null ? undefined : deps.box.open({ enc: row.sealed_html, last4: '' }, sealHtmlContext(row.id));
      await deps.mailer.send({ to: row.recipient, subject: row.subject, text, ...(html === undefined ? {} : { html }) });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (row.attempts >= MAIL_MAX_ATTEMPTS) {
        await db('mail_outbox').where('id', row.id).delete();
        logger.error({ err, mailId: row.id, organizationId: row.organization_id, attempts: row.attempts }, 'mail given up after its last attempt');
      } else {
        await db('mail_outbox')
          .where('id', row.id)
          .update({ last_error: message.slice(0, 500), next_attempt_at: db.raw(`now() + interval '${backoffSeconds(row.attempts)} seconds'`) });
        logger.warn({ err, mailId: row.id, organizationId: row.organization_id, attempts: row.attempts }, 'mail not sent; retried later');
      }
      return false;
    }
    await db('mail_outbox').where('id', row.id).delete();
    return true;
  } catch (err) {
    // The database itself failed: the row (if claimed) is due again after its lease.
    logger.warn({ err, mailId: id }, 'mail outbox unavailable; retried later');
    return false;
  }
}

/** Sends up to `limit` due messages, one at a time (the sweeper); the number sent. */
export async function deliverDueMail(deps: MailOutboxDeps, limit = 50): Promise<number> {
  const due: { id: string }[] = await deps.db('mail_outbox').where('next_attempt_at', '<=', deps.db.fn.now()).orderBy('next_attempt_at').limit(limit).select('id');
  let sent = 0;
  for (const { id } of due) if (await deliverMail(deps, id)) sent++;
  return sent;
}

/**
 * The sweeper of one process (the worker): every `intervalMs`, the messages whose first send failed or whose sender
 * died. Returns its stop function.
 */
export function startMailSweeper(deps: MailOutboxDeps, intervalMs: number): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // One sweep at a time: a slow SMTP server must not pile sweeps up.
    running ??= deliverDueMail(deps)
      .catch((err: unknown) => deps.logger.warn({ err }, 'mail sweeper failed'))
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
