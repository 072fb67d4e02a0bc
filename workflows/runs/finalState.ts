import type { NodeState, RunError } from '../../lib/dag/model';
import { isValueRef, type RunSummary } from '../../lib/runs/types';
import { bookkeepingActivities, runActivities, toNodeFailure, type ExecEnv } from './execute';
import type { PayloadBudget } from './payloads';
import { chooseSpills, jsonBytes } from './scheduler/spill';

/** How a run ends on the record: its results fitted to the payload budget, then its final state written once. */

/**
 * The run's results (its exit nodes' outputs) within the budget: the largest are stored first. Those that cannot be
 * stored are left out of the results (their node states keep them), and the run's errors say so. Returns the ids
 * left out.
 */
export async function fitResults(payloads: PayloadBudget, exitPoints: readonly string[], states: Record<string, NodeState>, errors: RunError[]): Promise<string[]> {
  const exits = exitPoints.filter((id) => states[id]?.status === 'completed' && !isValueRef(states[id].output));
  const candidates = exits.map((id) => ({ key: id, bytes: payloads.sizeOf(states[id]!.output), uses: 1 }));
  const total = candidates.reduce((sum, c) => sum + c.bytes, 0);
  const chosen = chooseSpills(candidates, total, payloads.bytes);
  if (chosen.length === 0) return [];
  try {
    const refs = await payloads.store(chosen.map((id) => ({ name: id, value: states[id]!.output })));
    chosen.forEach((id, i) => (states[id]!.output = refs[i]));
    return [];
  } catch (err) {
    // Sent as they are, they would fail the execution past Temporal's limit after the run row said otherwise.
    const cause = toNodeFailure(err, 1);
    errors.push({
      node: null,
      code: 'VALUE_STORE_FAILED',
      message: `storing the run's large results failed (${cause.message}); ${chosen.join(', ')} are in node_states only`,
      attempt: 0,
      time: new Date().toISOString(),
    });
    return chosen;
  }
}

/**
 * The final state, written once; node states in chunks first when they are large: ~1 MB chunks, or, with a payload
 * budget, budget-sized chunks whenever the states and the results together exceed the budget.
 */
export async function persistRun(
  env: ExecEnv,
  states: Record<string, NodeState>,
  payloads: PayloadBudget | null,
  summary: RunSummary,
  completedAt: string,
): Promise<void> {
  const budgeted = payloads !== null;
  const chunkBytes = payloads?.bytes ?? 1_000_000;
  // Runs without a budget measured characters, and must replay with the same chunks.
  const measure = budgeted ? jsonBytes : (value: unknown) => JSON.stringify(value).length;
  let total = budgeted ? jsonBytes(summary.results) + jsonBytes(summary.errors) : 0;
  const sizes = new Map<string, number>();
  for (const [id, state] of Object.entries(states)) {
    const size = measure(state);
    sizes.set(id, size);
    total += size;
  }
  let nodeStates: Record<string, NodeState> | undefined = states;
  if (total > chunkBytes) {
    let chunk: Record<string, NodeState> = {};
    let chunkSize = 0;
    for (const [id, state] of Object.entries(states)) {
      if (budgeted && chunkSize > 0 && chunkSize + sizes.get(id)! > chunkBytes) {
        await runActivities.runSaveNodeStates({ runId: env.runId, nodeStates: chunk });
        chunk = {};
        chunkSize = 0;
      }
      chunk[id] = state;
      chunkSize += sizes.get(id)!;
      if (!budgeted && chunkSize >= chunkBytes) {
        await runActivities.runSaveNodeStates({ runId: env.runId, nodeStates: chunk });
        chunk = {};
        chunkSize = 0;
      }
    }
    if (chunkSize > 0) await runActivities.runSaveNodeStates({ runId: env.runId, nodeStates: chunk });
    nodeStates = undefined;
  }
  await bookkeepingActivities(env).runFinish({
    runId: summary.runId,
    status: summary.status,
    nodeStates,
    results: summary.results,
    errors: summary.errors,
    completedAt,
  });
}
