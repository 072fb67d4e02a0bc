import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { BaselineActivities } from './activities';

/**
 * The hand-written baseline the DAG interpreter is measured against: the smallest honest Temporal workflow that
 * calls the same tool code (json_transform's execute) `steps` times in sequence, on the same server. No run rows,
 * no node states, no interpretation: what a developer would write by hand for a fixed pipeline.
 */
const { transform, stamp, transformAndRecord } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '30s' });

export async function baselineChainWorkflow(steps: number, expression: string, data: unknown): Promise<unknown> {
  let value = data;
  for (let i = 0; i < steps; i += 1) {
    const { result } = await transform({ expression, data: value });
    value = result;
  }
  return value;
}

/**
 * The recorded run baseline (row `run_1node_cpu_fair`): `baselineChainWorkflow` with one step, whose only activity
 * also records the run's completion in the row the hand-written endpoint inserted (bench/baseline/fairServer.ts).
 */
export async function baselineRecordedRunWorkflow(runId: string, expression: string, data: unknown): Promise<unknown> {
  const { result } = await transformAndRecord({ runId, expression, data });
  return result;
}

export const goSignal = defineSignal<[{ key: string }]>('go');

/**
 * The waiting baseline (the `waiting` bench rows): what a developer writes by hand for "wait for an outside event,
 * then go on": a signal handler and a durable condition with a timeout, then one activity, whose start time is the
 * result (the resume latency's end). No records, no matching, no dispatcher.
 */
export async function baselineSignalWaitWorkflow(key: string, timeoutMs: number): Promise<{ at: number | null }> {
  let arrived = false;
  setHandler(goSignal, (signal) => {
    if (signal.key === key) arrived = true;
  });
  if (!(await condition(() => arrived, timeoutMs))) return { at: null };
  return stamp();
}
