import type { Knex } from 'knex';

/**
 * At most one firing of a schedule waits for its organization's budget of scheduled runs
 * (SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT, workflows/triggers/scheduled.ts). A schedule whose overlap policy lets
 * firings run together (`allow_all`) and that fires faster than its organization may run kept one waiting execution
 * per firing: up to 900 for a schedule firing every second, each asking again every window. The first firing past
 * the budget holds the schedule's slot and waits; the ones after it end without a run, as `skip` would have let
 * them. The slot is freed when its firing starts its run, and lapses after `holdMs` if the firing gave up or vanished.
 */
export type WaitingSlot = 'held' | 'taken' | 'untracked';

export async function claimWaitingSlot(
  db: Knex,
  schedule: { workflowId: string; triggerKey: string },
  firingId: string,
  holdMs: number,
): Promise<WaitingSlot> {
  const result = await db.raw<{ rows: { held: boolean }[] }>(
    `UPDATE trigger_schedules
        SET waiting_firing_id = CASE WHEN waiting_firing_id IS NULL OR waiting_firing_id = :firingId OR waiting_until < now()
                                     THEN :firingId ELSE waiting_firing_id END,
            waiting_until = CASE WHEN waiting_firing_id IS NULL OR waiting_firing_id = :firingId OR waiting_until < now()
                                 THEN now() + make_interval(secs => :holdSeconds) ELSE waiting_until END
      WHERE workflow_id = :workflowId AND trigger_key = :triggerKey
      RETURNING waiting_firing_id = :firingId AS held`,
    { firingId, holdSeconds: holdMs / 1000, workflowId: schedule.workflowId, triggerKey: schedule.triggerKey },
  );
  const row = result.rows[0];
  if (!row) return 'untracked';
  return row.held ? 'held' : 'taken';
}

/** Frees the slot if `firingId` holds it (its run started). */
export async function releaseWaitingSlot(db: Knex, schedule: { workflowId: string; triggerKey: string }, firingId: string): Promise<void> {
  await db('trigger_schedules')
    .where({ workflow_id: schedule.workflowId, trigger_key: schedule.triggerKey, waiting_firing_id: firingId })
    .update({ waiting_firing_id: null, waiting_until: null });
}
