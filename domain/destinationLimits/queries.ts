import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { takeTurnIn, type TurnLimit } from '../../lib/destinationLimits';

/**
 * The SQL of rate limits on destinations: the one module that writes `destination_turns` (db/migrations/1290).
 * Times are microseconds since the epoch on PostgreSQL's clock, so that every worker process measures against the
 * same clock; the caller turns `atUs - nowUs` into a wait on its own monotonic clock.
 */

/** A turn taken: when the call may start, and the database's clock when the turn was computed. */
export interface TakenTurn {
  atUs: number;
  nowUs: number;
}

/** `clock_timestamp()`, the time at the moment of evaluation (now() would be the transaction's start), in µs. */
const CLOCK_US = `(extract(epoch FROM clock_timestamp()) * 1000000)::bigint`;

/**
 * Takes the next turn of one limit, in one statement (`takeTurnIn` in SQL): the turn is the limit's next turn or now,
 * whichever is later, and the limit's next turn moves `costUs` past it. The row is locked for the update, and the clock is read after
 * the lock is granted (in the SET's sub-select), so concurrent callers are served one after another, each from the
 * state the previous one left, and none from a time read while it waited.
 */
async function takeOne(db: Db, organizationId: string, limit: TurnLimit): Promise<TakenTurn> {
  const result = await db.raw<{ rows: { at_us: string; now_us: string }[] }>(
    `INSERT INTO destination_turns AS t (organization_id, limit_key, next_turn_us, taken_at_us)
     SELECT :organizationId, :key, c.now_us + :cost, c.now_us FROM (SELECT ${CLOCK_US} AS now_us) c
     ON CONFLICT (organization_id, limit_key) DO UPDATE
       SET (next_turn_us, taken_at_us) = (SELECT greatest(t.next_turn_us, c.now_us) + :cost, c.now_us FROM (SELECT ${CLOCK_US} AS now_us) c)
     RETURNING t.next_turn_us - :cost AS at_us, t.taken_at_us AS now_us`,
    { organizationId, key: limit.key, cost: limit.costUs },
  );
  const row = result.rows[0]!;
  return { atUs: Number(row.at_us), nowUs: Number(row.now_us) };
}

/**
 * Takes one turn in several limits at once (a call under an organization limit and a node's own keyed limit): the
 * turn is the latest of their next turns and now, and each limit's next turn moves its own cost past it. The rows
 * are locked in key order (created when missing) by the first statement, read, and written by the second, in one
 * short transaction that waits for nothing but them.
 */
async function takeJoint(db: Db, organizationId: string, limits: readonly TurnLimit[]): Promise<TakenTurn> {
  const keys = limits.map((l) => l.key);
  return db.transaction(async (trx: Knex.Transaction) => {
    const locked = await trx.raw<{ rows: { limit_key: string; next_turn_us: string; now_us: string }[] }>(
      `INSERT INTO destination_turns AS t (organization_id, limit_key, next_turn_us, taken_at_us)
       SELECT :organizationId, k.key, 0, 0 FROM unnest(:keys::text[]) AS k(key) ORDER BY k.key
       ON CONFLICT (organization_id, limit_key) DO UPDATE SET next_turn_us = t.next_turn_us
       RETURNING t.limit_key, t.next_turn_us, ${CLOCK_US} AS now_us`,
      { organizationId, keys },
    );
    const nowUs = Math.max(...locked.rows.map((r) => Number(r.now_us)));
    const nextTurns = new Map(locked.rows.map((r) => [r.limit_key, Number(r.next_turn_us)]));
    const { atUs, nextTurnsUs } = takeTurnIn(nowUs, limits.map((l) => ({ nextTurnUs: nextTurns.get(l.key)!, costUs: l.costUs })));
    await trx.raw(
      `UPDATE destination_turns AS t SET next_turn_us = v.next_turn_us, taken_at_us = :nowUs
       FROM unnest(:keys::text[], :nexts::bigint[]) AS v(limit_key, next_turn_us)
       WHERE t.organization_id = :organizationId AND t.limit_key = v.limit_key`,
      { organizationId, keys, nexts: nextTurnsUs, nowUs },
    );
    return { atUs, nowUs };
  });
}

/** Takes the call's turn in every limit it is under (`limits` sorted by key, at least one). */
export async function takeTurn(db: Db, organizationId: string, limits: readonly TurnLimit[]): Promise<TakenTurn> {
  if (limits.length === 1) return takeOne(db, organizationId, limits[0]!);
  return takeJoint(db, organizationId, limits);
}

/** The database's clock, µs: how far away a turn taken earlier is now. */
export async function databaseClockUs(db: Db): Promise<number> {
  const result = await db.raw<{ rows: { now_us: string }[] }>(`SELECT ${CLOCK_US} AS now_us`);
  return Number(result.rows[0]!.now_us);
}

/**
 * Deletes the rows of limits idle for `idleUs`: a limit whose next turn has passed gives the next call the turn
 * "now", as a missing row does, so this changes no turn.
 */
export async function deleteIdleTurns(db: Db, idleUs: number): Promise<number> {
  const result = await db.raw<{ rowCount: number }>(`DELETE FROM destination_turns WHERE next_turn_us < ${CLOCK_US} - ?`, [idleUs]);
  return result.rowCount;
}

/** The next turns of an organization's limits (tests, operators). */
export async function listTurns(db: Db, organizationId: string): Promise<{ limit_key: string; next_turn_us: string; taken_at_us: string }[]> {
  return db('destination_turns').where({ organization_id: organizationId }).orderBy('limit_key').select('limit_key', 'next_turn_us', 'taken_at_us');
}
