import type { Knex } from 'knex';

/**
 * Approval nodes (issue 42): one row per approval a run asks for, written when the node starts waiting. The row is
 * the arbiter of the decision: approvers' decisions are appended under its row lock, and the status it reaches
 * (approved, rejected, timed_out, cancelled) is final. The run learns of it by a signal, or reads it when its
 * timeout fires. Rows go with their run (retention) and with their organization.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('run_approvals', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.uuid('workflow_id').notNullable();
    t.uuid('run_id').notNullable().references('id').inTable('workflow_runs').onDelete('CASCADE');
    t.string('node_id', 200).notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.string('approver_role', 20).nullable();
    t.jsonb('approver_users').notNullable().defaultTo('[]');
    t.integer('required').notNullable().defaultTo(1);
    t.boolean('allow_self_approval').notNullable().defaultTo(false);
    t.uuid('requested_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.text('message').nullable();
    t.jsonb('form').notNullable().defaultTo('[]');
    t.jsonb('decisions').notNullable().defaultTo('[]');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.unique(['run_id', 'node_id'], { indexName: 'run_approvals_node' });
    t.index(['organization_id', 'status', 'created_at'], 'run_approvals_by_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('run_approvals');
}
