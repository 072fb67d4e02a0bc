import { Context } from '@temporalio/activity';
import { recordAudit } from '../../domain/audit/record';
import { lockRunForApproval, setRunApproval } from '../../domain/runs/queries';
import { triggerRunBudget, TriggerRunBudgetSpent } from '../../domain/triggers/runBudget';
import { prepareTriggeredRun } from '../../domain/runs/launch';
import { claimWallTime, claimWaitingSlot, releaseWaitingSlot } from '../../domain/triggers/schedules';
import { dstDecision, isRepeatedWallTime } from '../../lib/triggers/dst';
import { loadWorkflowVersion } from '../../domain/workflows/queries';
import type { ApprovalRecord } from '../../lib/triggers/approval';
import { parseTriggers, type ScheduleConfig } from '../../lib/triggers/config';
import { uuidFrom } from '../../lib/triggers/ids';
import type { ApprovalOutcome, ScheduledRunPrepared } from '../../lib/triggers/types';
import type { ActivityDeps } from '../deps';

/** A waiting firing's slot: the 15 minutes a firing waits at most (workflows/triggers/scheduled.ts), and a margin. */
const WAITING_SLOT_HOLD_MS = 16 * 60_000;

/** Activities of schedule firings and of the approval gate (workflows/triggers/). */
export function createTriggerActivities(deps: ActivityDeps) {
  const { db, config } = deps;
  // SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT: past it a firing sleeps and asks again (workflows/triggers/scheduled.ts).
  const admitScheduledRun = triggerRunBudget(db, 'schedules.runs', config.triggers.scheduleRunRate, 'scheduled runs');

  return {
    /** Creates the run of one schedule firing (idempotent: the run id is derived from the firing's execution id). */
    async prepareScheduledRun(input: {
      organizationId: string;
      workflowId: string;
      triggerKey: string;
      firingId: string;
      firedAt: string;
      /** The time the schedule meant (Temporal's TemporalScheduledStartTime); absent in firings started before. */
      scheduledAt?: string;
    }): Promise<ScheduledRunPrepared> {
      const loaded = await loadWorkflowVersion(db, input.organizationId, input.workflowId);
      if (!loaded) return { runId: null, input: null, reason: 'workflow_not_found' };
      const trigger = parseTriggers(loaded.compiled.triggers).find((t) => t.type === 'schedule' && t.key === input.triggerKey);
      if (!trigger || !trigger.enabled) return { runId: null, input: null, reason: 'trigger_removed' };
      const schedule = trigger.config as ScheduleConfig;
      // Daylight saving (docs/triggers.md#daylight-saving-time): a repeated wall time runs once; a gap spec's firing
      // runs only on a day the cron fell in the gap.
      const nominal = new Date(input.scheduledAt ?? input.firedAt);
      const decision = dstDecision(schedule.cron, schedule.timezone, nominal, schedule.dst, null);
      if (!decision.run) return { runId: null, input: null, reason: decision.reason };
      // The latest wall time fired moves forward with every firing; in the hour the clocks went back, a wall time
      // already passed is the repeat.
      if (schedule.dst === 'adjust' && (await claimWallTime(db, input, input.firingId, decision.wall)) === 'repeat' && isRepeatedWallTime(schedule.timezone, nominal)) {
        return { runId: null, input: null, reason: 'dst_repeat' };
      }
      const runId = uuidFrom(`schedule:${input.firingId}`);
      let outcome;
      try {
        outcome = await prepareTriggeredRun(deps, {
          organizationId: input.organizationId,
          workflowId: input.workflowId,
          runId,
          trigger: { type: 'schedule', triggerId: input.triggerKey, scheduleFiring: input.firingId, firedAt: input.firedAt },
          parameters: () => (trigger.config as ScheduleConfig).parameters,
          priority: (trigger.config as ScheduleConfig).priority,
          onInvalidParameters: 'record_failed',
          admit: () => admitScheduledRun(input.organizationId),
        });
      } catch (err) {
        if (!(err instanceof TriggerRunBudgetSpent)) throw err;
        // One firing per schedule waits for the budget; those after it end here, as an overlap of `skip` would.
        if ((await claimWaitingSlot(db, input, input.firingId, WAITING_SLOT_HOLD_MS)) === 'taken') {
          return { runId: null, input: null, reason: 'rate_limited_another_waits' };
        }
        return { runId: null, input: null, reason: 'rate_limited', retryAfterMs: err.retryAfterSeconds * 1000 };
      }
      if (outcome.kind === 'ready') {
        await releaseWaitingSlot(db, input, input.firingId);
        return { runId, input: outcome.input, reason: 'started' };
      }
      if (outcome.kind === 'finished') return { runId, input: null, reason: `run_${outcome.row.status}` };
      // The workflow's singleton control: a run of the same key is still open, so this firing starts none.
      if (outcome.kind === 'joined') return { runId: outcome.row.id, input: null, reason: 'singleton_open' };
      return { runId: null, input: null, reason: outcome.message };
    },

    /**
     * The approval timeout fired: mark the approval timed out unless a decision was recorded first (its signal may
     * still be in flight); the recorded decision wins.
     */
    async approvalTimedOut(input: { runId: string; onTimeout: 'fail' | 'cancel' }): Promise<ApprovalOutcome> {
      return db.transaction(async (trx) => {
        const row = await lockRunForApproval(trx, input.runId);
        const approval = row?.trigger.approval;
        if (!row || !approval) return { decision: 'timed_out', by: null, comment: null };
        if (approval.status === 'approved' || approval.status === 'rejected') {
          return { decision: approval.status, by: approval.decidedBy ?? null, comment: approval.comment ?? null };
        }
        if (approval.status === 'pending') {
          const next: ApprovalRecord = { ...approval, status: 'timed_out', decidedAt: new Date().toISOString(), onTimeout: input.onTimeout };
          await setRunApproval(trx, input.runId, next);
          await recordAudit(trx, {
            organizationId: row.organization_id,
            actor: { type: 'system', id: Context.current().info.workflowExecution?.workflowId ?? null },
            action: 'run.approval_timed_out',
            target: { type: 'run', id: input.runId },
            after: { outcome: input.onTimeout === 'cancel' ? 'cancelled' : 'failed' },
          });
        }
        return { decision: 'timed_out', by: null, comment: null };
      });
    },
  };
}
