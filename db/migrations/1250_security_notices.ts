import type { Knex } from 'knex';

/**
 * Security notices (issue 43): the mail outbox carries an HTML body beside the text one (sealed like it), and the
 * devices each user has signed in from, so a sign-in from a new one is mailed to them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mail_outbox', (t) => {
    t.text('sealed_html').nullable();
  });
  await knex.schema.createTable('user_sign_in_devices', (t) => {
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    // SHA-256 of the user agent without its version numbers and the network (/24 or /48) the sign-in came from.
    t.string('fingerprint', 64).notNullable();
    t.string('user_agent', 300).nullable();
    t.string('network', 64).nullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'fingerprint']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_sign_in_devices');
  await knex.schema.alterTable('mail_outbox', (t) => {
    t.dropColumn('sealed_html');
  });
}
