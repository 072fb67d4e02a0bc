import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client, type ScheduleOptionsAction, type ScheduleSpec } from '@temporalio/client';
import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import type { StoredDefinition, WorkflowStatus } from '../../lib/dag/model';
import { parseDuration } from '../../lib/duration';
import { parseTriggers, type ScheduleConfig } from '../../lib/triggers/config';
import { toTemporalCron } from '../../lib/triggers/cron';
import { gapSpecs } from '../../lib/triggers/dst';
import type { ScheduledRunInput } from '../../lib/triggers/types';

/**
 * Schedule triggers as Temporal Schedules, one per (workflow, trigger key), id `loom-trigger-<workflow>-<key>`:
 * present while the workflow is active (running) or paused (paused), absent for drafts and archived or deleted
 * workflows; a new version updates spec, policies and action. Each firing starts `scheduledRunWorkflow`, which
 * creates the run row and executes the interpreter as a child (workflows/triggers/scheduled.ts). The ids are kept
 * in `trigger_schedules` so stale ones are found after a version drops a trigger or the organization is deleted.
 */

export const SCHEDULED_RUN_WORKFLOW_TYPE = 'scheduledRunWorkflow';

const OVERLAP: Record<ScheduleConfig['overlap'], ScheduleOverlapPolicy> = {
  skip: ScheduleOverlapPolicy.SKIP,
  buffer_one: ScheduleOverlapPolicy.BUFFER_ONE,
  buffer_all: ScheduleOverlapPolicy.BUFFER_ALL,
  cancel_other: ScheduleOverlapPolicy.CANCEL_OTHER,
  terminate_other: ScheduleOverlapPolicy.TERMINATE_OTHER,
  allow_all: ScheduleOverlapPolicy.ALLOW_ALL,
};

export function scheduleIdFor(workflowId: string, triggerKey: string): string {
  return `loom-trigger-${workflowId}-${triggerKey}`;
}

export interface ScheduleDeps {
  db: Db;
  temporal: Client;
  config: Config;
}

interface Desired {
  scheduleId: string;
  key: string;
  spec: ScheduleSpec;
  action: ScheduleOptionsAction;
  overlap: ScheduleOverlapPolicy;
  catchupWindowMs: number;
  paused: boolean;
}

function desiredSchedules(
  deps: ScheduleDeps,
  target: { organizationId: string; workflowId: string; status: WorkflowStatus; definition: StoredDefinition },
): Desired[] {
  if (target.status !== 'active' && target.status !== 'paused') return [];
  return parseTriggers(target.definition.triggers)
    .filter((t) => t.type === 'schedule' && t.enabled)
    .map((t) => {
      const config = t.config as ScheduleConfig;
      const args: ScheduledRunInput = { organizationId: target.organizationId, workflowId: target.workflowId, triggerKey: t.key };
      return {
        scheduleId: scheduleIdFor(target.workflowId, t.key),
        key: t.key,
        // adjust: a second spec fires where the clocks skip a time the cron names (lib/triggers/dst.ts).
        spec: {
          cronExpressions: [config.cron, ...(config.dst === 'adjust' ? gapSpecs(config.cron, config.timezone) : [])].map(toTemporalCron),
          timezone: config.timezone,
        },
        action: {
          type: 'startWorkflow',
          workflowType: SCHEDULED_RUN_WORKFLOW_TYPE,
          workflowId: `loom-sched-${target.workflowId}-${t.key}`,
          taskQueue: deps.config.temporal.taskQueue,
          args: [args],
        },
        overlap: OVERLAP[config.overlap],
        catchupWindowMs: config.catchupWindow ? parseDuration(config.catchupWindow) : deps.config.triggers.defaultCatchupWindowMs,
        paused: target.status === 'paused',
      };
    });
}

async function upsert(deps: ScheduleDeps, target: { organizationId: string; workflowId: string }, d: Desired): Promise<void> {
  const note = d.paused ? 'workflow paused' : 'workflow active';
  try {
    await deps.temporal.schedule.create({
      scheduleId: d.scheduleId,
      spec: d.spec,
      action: d.action,
      policies: { overlap: d.overlap, catchupWindow: d.catchupWindowMs },
      state: { paused: d.paused, note },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await deps.temporal.schedule.getHandle(d.scheduleId).update((previous) => ({
      ...previous,
      spec: d.spec,
      action: d.action,
      policies: { ...previous.policies, overlap: d.overlap, catchupWindow: d.catchupWindowMs },
      state: { ...previous.state, paused: d.paused, note },
    }));
  }
  await deps
    .db('trigger_schedules')
    .insert({ schedule_id: d.scheduleId, organization_id: target.organizationId, workflow_id: target.workflowId, trigger_key: d.key })
    .onConflict('schedule_id')
    .ignore();
}

async function remove(deps: ScheduleDeps, scheduleId: string): Promise<void> {
  try {
    await deps.temporal.schedule.getHandle(scheduleId).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  await deps.db('trigger_schedules').where({ schedule_id: scheduleId }).delete();
}

/** Makes Temporal match the workflow's current status and version (idempotent; safe to call again). */
export async function syncSchedules(
  deps: ScheduleDeps,
  target: { organizationId: string; workflowId: string; status: WorkflowStatus; definition: StoredDefinition },
): Promise<void> {
  const desired = desiredSchedules(deps, target);
  for (const d of desired) await upsert(deps, target, d);
  const keep = new Set(desired.map((d) => d.scheduleId));
  const existing = await deps.db('trigger_schedules').where({ workflow_id: target.workflowId }).select<{ schedule_id: string }[]>('schedule_id');
  for (const { schedule_id } of existing) if (!keep.has(schedule_id)) await remove(deps, schedule_id);
}

/** Every schedule of a workflow (deleted workflow) or of an organization (organization deletion). */
export async function deleteSchedulesWhere(deps: ScheduleDeps, where: { workflow_id: string } | { organization_id: string }): Promise<void> {
  const rows = await deps.db('trigger_schedules').where(where).select<{ schedule_id: string }[]>('schedule_id');
  for (const { schedule_id } of rows) await remove(deps, schedule_id);
}

export interface ScheduleView {
  scheduleId: string;
  state: 'active' | 'paused' | 'missing';
  nextFireTimes: string[];
  recentFireTimes: string[];
}

export async function describeSchedule(deps: ScheduleDeps, scheduleId: string): Promise<ScheduleView> {
  try {
    const d = await deps.temporal.schedule.getHandle(scheduleId).describe();
    return {
      scheduleId,
      state: d.state.paused ? 'paused' : 'active',
      nextFireTimes: d.state.paused ? [] : d.info.nextActionTimes.slice(0, 5).map((t) => t.toISOString()),
      recentFireTimes: d.info.recentActions.slice(-5).map((a) => a.scheduledAt.toISOString()),
    };
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return { scheduleId, state: 'missing', nextFireTimes: [], recentFireTimes: [] };
    throw err;
  }
}

/**
 * At most one firing of a schedule waits for its organization's budget of scheduled runs
 * (SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT, workflows/triggers/scheduled.ts). A schedule whose overlap policy lets
 * firings run together (`allow_all`) and that fires faster than its organization may run kept one waiting execution
 * per firing: up to 900 for a schedule firing every second, each asking again every window. The first firing past
 * the budget holds the schedule's slot and waits; the ones after it end without a run, as `skip` would have let
 * them. The slot is freed when its firing starts its run, and lapses after `holdMs` if the firing gave up or vanished.
 */
export type WaitingSlot = 'held' | 'taken' | 'untracked';

/**
 * Claims a wall time for a firing of the `adjust` policy: the schedule's latest wall time moves to it when it is
 * later (or this firing already claimed it: a retried activity). `repeat`: an earlier firing already ran at this
 * wall time or a later one (the clocks went back); `untracked`: no row (the firing runs).
 */
export async function claimWallTime(
  db: Db,
  schedule: { workflowId: string; triggerKey: string },
  firingId: string,
  wallTime: string,
): Promise<'claimed' | 'repeat' | 'untracked'> {
  const result = await db.raw<{ rows: { claimed: boolean }[] }>(
    `UPDATE trigger_schedules
        SET last_wall_time = CASE WHEN last_wall_time IS NULL OR last_wall_time < :wallTime THEN :wallTime ELSE last_wall_time END,
            last_wall_firing_id = CASE WHEN last_wall_time IS NULL OR last_wall_time < :wallTime THEN :firingId ELSE last_wall_firing_id END
      WHERE workflow_id = :workflowId AND trigger_key = :triggerKey
      RETURNING last_wall_firing_id = :firingId AS claimed`,
    { firingId, wallTime, workflowId: schedule.workflowId, triggerKey: schedule.triggerKey },
  );
  const row = result.rows[0];
  if (!row) return 'untracked';
  return row.claimed ? 'claimed' : 'repeat';
}

export async function claimWaitingSlot(
  db: Db,
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
export async function releaseWaitingSlot(db: Db, schedule: { workflowId: string; triggerKey: string }, firingId: string): Promise<void> {
  await db('trigger_schedules')
    .where({ workflow_id: schedule.workflowId, trigger_key: schedule.triggerKey, waiting_firing_id: firingId })
    .update({ waiting_firing_id: null, waiting_until: null });
}
