import type { Knex } from 'knex';

/**
 * The limiter's counters (migration 0101) skip the write-ahead log. Every login, run start and other limited request
 * upserts a counter in a transaction of its own, and a transaction that wrote only to unlogged tables commits without
 * waiting for a WAL flush: on this kind of machine a flushed upsert costs ~3-4x the CPU of an unlogged one (pgbench,
 * docs/benchmarks.md). What that gives up: after a crash of PostgreSQL (not a clean restart) the table starts
 * empty, and standbys do not have it, so the windows open at that moment start from zero. Counters live for one
 * window (at most 15 minutes by default); nothing else reads them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE rate_limit_counters SET UNLOGGED');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE rate_limit_counters SET LOGGED');
}
