import type { Knex } from 'knex';

/**
 * `mail_outbox`: platform mail written in the transaction of the change that causes it (an invitation, a resend)
 * and sent after commit (domain/notifications/mailOutbox.ts), so no transaction waits for SMTP. The text is sealed
 * (AES-256-GCM, lib/secrets.ts): an invitation mail carries its token, which the database otherwise keeps only as a
 * hash. A row lives until it is sent or has used its attempts; `next_attempt_at` doubles as the sender's lease.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_outbox', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').nullable().references('id').inTable('organizations').onDelete('CASCADE');
    // What the mail is about (`invitation` + its id): a newer mail about the same thing replaces an unsent older one.
    t.string('topic', 64).notNullable();
    t.uuid('topic_id').nullable();
    t.string('recipient', 320).notNullable();
    t.string('subject', 998).notNullable();
    t.text('sealed_text').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('last_error', 500).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['next_attempt_at']);
    t.index(['topic', 'topic_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mail_outbox');
}
