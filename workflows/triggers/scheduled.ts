import { ApplicationFailure, executeChild, patched, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { runSearchAttributes, runStartMetadata } from '../../lib/runs/searchAttributes';
import type { ScheduledRunInput } from '../../lib/triggers/types';
import { tenantPriority } from '../../lib/tenantPriority';

/**
 * One firing of a schedule trigger (started by its Temporal Schedule). An activity creates the run row (run id
 * derived from this execution's id, so a retried activity finds the same run) with trigger `{ type: 'schedule' }`,
 * then the interpreter runs as a child whose workflow id is the run id, like every run. This workflow waits for the
 * child so the schedule's overlap policy (skip by default) sees a firing as running until its run finishes.
 */
const { prepareScheduledRun } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/** The run child starts with the summary, details, memo and LoomWorkflowName that API-started runs have. */
export const SCHEDULED_RUN_METADATA_PATCH = 'scheduled-run-metadata';

/**
 * The longest a firing waits for its organization's budget of scheduled runs (SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT)
 * before it gives up as `rate_limited`: long enough for a burst of every schedule at the top of the hour to start at
 * the budget's pace, short of piling up firings of a schedule that fires faster than its organization may run.
 */
const MAX_BUDGET_WAIT_MS = 15 * 60_000;

/** A stable offset in [0, range) from an id (FNV-1a). */
function spreadMs(id: string, range: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash % range;
}

/** The time the schedule meant this firing for (set by Temporal on the executions a schedule starts). */
function scheduledTimeOf(info: ReturnType<typeof workflowInfo>): string | undefined {
  const value = info.searchAttributes?.TemporalScheduledStartTime?.[0];
  return value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : undefined;
}

export async function scheduledRunWorkflow(input: ScheduledRunInput): Promise<{ runId: string | null; status: string }> {
  const info = workflowInfo();
  const scheduledAt = scheduledTimeOf(info);
  const prepare = () =>
    prepareScheduledRun({ ...input, firingId: info.workflowId, firedAt: info.startTime.toISOString(), ...(scheduledAt ? { scheduledAt } : {}) });
  // Firings waiting for the same window ask again up to 5 s after its end, each at its own offset (from its id:
  // the same on replay), so that they do not all ask at once.
  const spread = spreadMs(info.workflowId, 5000);
  let prepared = await prepare();
  // Histories from before the budget never got `retryAfterMs`, so they replay without entering this loop.
  for (let waited = 0; prepared.retryAfterMs !== undefined && waited < MAX_BUDGET_WAIT_MS; ) {
    const delay = Math.max(1000, Math.min(prepared.retryAfterMs + spread, MAX_BUDGET_WAIT_MS - waited));
    await sleep(delay);
    waited += delay;
    prepared = await prepare();
  }
  if (!prepared.input) return { runId: prepared.runId, status: prepared.reason };
  const run = prepared.input;
  try {
    const summary = await executeChild('dagRunWorkflow', {
      workflowId: run.runId,
      args: [run],
      priority: tenantPriority(run.organizationId),
      ...(patched(SCHEDULED_RUN_METADATA_PATCH)
        ? runStartMetadata({
            runId: run.runId,
            organizationId: run.organizationId,
            workflowId: run.compiled.workflowId,
            workflowName: run.compiled.name,
            workflowVersion: run.compiled.version,
            trigger: run.trigger.type,
            runKind: run.kind,
          })
        : {
            typedSearchAttributes: runSearchAttributes({
              organizationId: run.organizationId,
              workflowId: run.compiled.workflowId,
              workflowVersion: run.compiled.version,
              runKind: run.kind,
              trigger: run.trigger.type,
            }),
          }),
    });
    return { runId: run.runId, status: (summary as { status: string }).status };
  } catch (err) {
    // The run's own failure is recorded on the run; the firing itself succeeded.
    if (err instanceof ApplicationFailure || (err as Error).name === 'ChildWorkflowFailure') return { runId: run.runId, status: 'failed' };
    throw err;
  }
}
