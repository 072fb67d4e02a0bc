import { ApplicationFailure, defineQuery, defineSignal, setHandler } from '@temporalio/workflow';
import { EVENT_ARRIVED_SIGNAL, type EventArrived } from '../../lib/runs/eventWait';
import { APPROVAL_DECIDED_SIGNAL, type ApprovalDecided } from '../../lib/runs/approvalNode';
import type { RunError } from '../../lib/dag/model';
import { ownsRunRecord, type RunInput, type RunStateView, type RunSummary } from '../../lib/runs/types';
import { bookkeepingActivities } from './execute';
import { buildGraph, GraphError, type RunGraph } from './graph';
import { Interpreter } from './interpreter';
import { askRunPatchesCurrent } from './patches';

/** The live state of a run (node states, errors), answered by the interpreter while it runs. */
export const runStateQuery = defineQuery<RunStateView>('runState');
/** The event dispatcher wakes a wait_for_event node (activities/events/dispatch.ts). */
export const eventArrivedSignal = defineSignal<[EventArrived]>(EVENT_ARRIVED_SIGNAL);
/** The API signals an approval node's final outcome (domain/approvals/service.ts). */
export const approvalDecidedSignal = defineSignal<[ApprovalDecided]>(APPROVAL_DECIDED_SIGNAL);

/** A run's execution (workflow id = run id): its graph built, then interpreted (interpreter.ts). */
export async function dagRunWorkflow(input: RunInput): Promise<RunSummary> {
  // Before anything else: the first thing an execution asks, in its first workflow task (patches.ts).
  const patchesCurrent = askRunPatchesCurrent();
  let graph: RunGraph;
  try {
    graph = buildGraph(input.compiled);
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    const now = new Date().toISOString();
    const errors: RunError[] = [{ node: null, code: 'INVALID_DEFINITION', message: err.message, attempt: 0, time: now }];
    if (ownsRunRecord(input)) {
      await bookkeepingActivities({ patchesCurrent }).runFinish({ runId: input.runId, status: 'failed', nodeStates: {}, results: {}, errors, completedAt: now });
    }
    throw ApplicationFailure.nonRetryable(err.message, 'INVALID_DEFINITION');
  }
  const interpreter = new Interpreter(input, graph, patchesCurrent);
  setHandler(runStateQuery, () => interpreter.view());
  setHandler(eventArrivedSignal, (arrived) => interpreter.eventArrived(arrived));
  setHandler(approvalDecidedSignal, (decided) => interpreter.approvalDecided(decided));
  return interpreter.run();
}
