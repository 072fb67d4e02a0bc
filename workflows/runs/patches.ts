import { patched } from '@temporalio/workflow';

/**
 * The run interpreter's patches (docs/runs.md, "Determinism"): each kept histories recorded before a change of
 * behaviour replaying as they ran. Each patch an execution asks for the first time costs it a marker event and an
 * upsert of the TemporalChangeVersion search attribute, which the server writes to its visibility store as one more
 * update of the execution's record. Since RUN_PATCHES_CURRENT, new executions ask one patch for all of these.
 */

/**
 * One patch for the switch to local activities: the run row's bookkeeping writes (`runMarkRunning`, `runFinish`:
 * short PostgreSQL updates) and the tools in `RunOptions.localTools`. A local activity runs inside the workflow task
 * that asks for it: no task queue round trip, no extra workflow task, one marker event instead of three events.
 * Executions whose history predates the patch replay with the regular activities they recorded. One id, not one per
 * call site: each patch costs every new execution a marker and a search attribute upsert (TemporalChangeVersion).
 */
export const LOCAL_ACTIVITIES_PATCH = 'run-local-activities';

/**
 * Temporal Web names the node of each tool activity: its activity id is the node id (`loop[3]` for a loop's item)
 * instead of a sequence number, and its summary says node and tool, so two `json_transform` nodes are told apart.
 * Node ids start with a letter or `_`, so they never meet the sequence numbers of the run's other activities; a
 * node's attempts run one after another, so no two pending activities share an id. Asked once, in the interpreter's
 * first workflow task, by every run (tools also run as loop items and fallbacks): asked first when a tool starts, after local activities had
 * completed, the marker did not replay (the end-of-suite replay caught it). Histories from before it replay with
 * their numbers.
 */
export const READABLE_ACTIVITIES_PATCH = 'readable-activity-ids';

/**
 * Runs keep what they assemble within the payload budget (payloads.ts). The option alone does not decide it: a run
 * started by a newer API may have been executed by an older worker, whose history has no spills to replay.
 */
export const PAYLOAD_BUDGET_PATCH = 'payload-budget';

/**
 * Subworkflow starts within the payload budget. The parameters are rendered, checked and, past a share of the
 * budget, stored by an activity (`runPrepareSubworkflowParameters`), so the child's start and its run row carry
 * references; the starts in flight are held to the budget (childStarts.ts); and the contexts of subworkflow nodes
 * count in the interpreter's budget. Before, each child start carried its inputs whole: a loop of 8 children fed a
 * 600 kB value sent 4.8 MB in one workflow task, which the server refused (GRPC_MESSAGE_TOO_LARGE) at every retry,
 * for ever. The preparation and the child's row are regular activities, not local ones: several children resolving
 * local activities at once were grouped into activations differently live and in replay (an SDK defect,
 * temporalio/sdk-typescript#1744), which reordered their commands. Budgeted runs from before it replay as they ran.
 */
export const SUBWORKFLOW_BUDGET_PATCH = 'subworkflow-payload-budget';

/**
 * A loop of local tools, its items' results within the payload budget. A local activity's result travels as a marker
 * in the completion of the workflow task it ran in, and a loop's local items all run in one task: forty outputs of
 * 100 kB were 4 MB in one completion, at the edge of what the server takes, and past it with anything else in that
 * task (the server refused it at every retry, for ever). With the patch, items store outputs over a share of the
 * budget themselves, and the loop ends the workflow task (a 1 ms timer) each time half a budget of results has come.
 */
export const LOOP_RESULTS_BUDGET_PATCH = 'loop-results-budget';

/**
 * Retry delays under SERVER_TIMER_FLOOR_MS are waited in the worker (by the next attempt's activity), no longer by a
 * server timer that fires after about a second (workflows/runs/strategy.ts). Asked once, in the interpreter's first
 * workflow task, by runs whose definition has a first retry delay under a second.
 */
export const SUBSECOND_RETRY_PATCH = 'subsecond-retry-delays';

/**
 * Subworkflow children own a workflow_runs row (listed under the child workflow, `parent` linking back) and their
 * workflow id is that row's id (a uuid), no longer `<run>.<node>`. Asked once, in the interpreter's first workflow
 * task, by runs that own a row and have a subworkflow node or a loop over a subworkflow.
 */
export const SUBWORKFLOW_RUNS_PATCH = 'subworkflow-run-records';

/**
 * Runs whose joins were met while a branch they no longer needed failed end `completed` (scheduler/outcome.ts);
 * executions recorded before ended `failed`, and replay them so. Asked once, in the first workflow task (a patch
 * first asked after local activities does not replay), and only by graphs with a `wait_any` / `wait_n` join, so other
 * runs record no marker.
 */
export const JOIN_TOLERATES_PATCH = 'join-tolerates-unneeded-failures';

/**
 * Error handlers' contexts within a share of the payload budget (`handlerContext`). Asked once, in the first
 * workflow task, by budgeted runs with a fallback or dead-letter strategy: a patch first asked after local activities
 * does not replay.
 */
export const HANDLER_PAYLOAD_BUDGET_PATCH = 'handler-payload-budget';

/**
 * A join that can no longer be met cancels the members of its branches still open, at once, as a met `wait_any`
 * cancels its losers: a failed `wait_all` used to leave a 20 s branch running and the run reported its failure 20 s
 * late. Cancelling sends commands that older histories do not have. Asked with patched() (it is newer than
 * RUN_PATCHES_CURRENT), once, in the first workflow task, and only by graphs with a parallel node.
 */
export const FAILED_JOIN_CANCELS_PATCH = 'failed-join-cancels-branches';

/**
 * Rate limits on destinations (docs/runs.md#rate-limits-on-destinations): a tool call whose turn is further away than
 * the activity waits in place answers `deferred`, and the run waits for the turn with a durable timer (the node shows
 * `waiting_for`) and calls the activity again (turns.ts). Calls of executions without the marker wait in place, as
 * their histories recorded. Asked with patched() (newer than RUN_PATCHES_CURRENT), once, in the first workflow task,
 * after every older patch, and only by runs that call a tool that is not local or declare a rate limit.
 */
export const RATE_LIMIT_TURNS_PATCH = 'rate-limit-turns';

/** The patches RUN_PATCHES_CURRENT stands for. A later change of behaviour gets a patch of its own, asked with patched(). */
export type RunPatch =
  | typeof LOCAL_ACTIVITIES_PATCH
  | typeof READABLE_ACTIVITIES_PATCH
  | typeof PAYLOAD_BUDGET_PATCH
  | typeof SUBWORKFLOW_BUDGET_PATCH
  | typeof LOOP_RESULTS_BUDGET_PATCH
  | typeof SUBSECOND_RETRY_PATCH
  | typeof SUBWORKFLOW_RUNS_PATCH
  | typeof JOIN_TOLERATES_PATCH
  | typeof HANDLER_PAYLOAD_BUDGET_PATCH;

/**
 * Every patch above at once. A 1-node run asked three of them (three markers, three visibility updates), and a run
 * with loops, subworkflows and error handlers up to nine. Asked first, in the first workflow task, by every execution
 * of the interpreter (`dagRunWorkflow`) and every loop batch (`loopBatchWorkflow`): each takes the answer from its own
 * history, never from its parent, because a batch's first task may have run on an older worker that asked its
 * patches one by one. Executions that recorded it take every patch above as present without asking it. Executions
 * recorded before it do not have it, and ask each patch where they always did, so they replay as they ran.
 */
export const RUN_PATCHES_CURRENT = 'run-patches-2026-11-28';

/** Whether an execution runs with every patch above (decided once, by `dagRunWorkflow`). */
export function askRunPatchesCurrent(): boolean {
  return patched(RUN_PATCHES_CURRENT);
}

/**
 * One of the patches above, for an execution: present when it runs with RUN_PATCHES_CURRENT, else asked here, as
 * before that patch existed.
 */
export function runPatched(execution: { patchesCurrent?: boolean }, patch: RunPatch): boolean {
  return execution.patchesCurrent === true || patched(patch);
}
