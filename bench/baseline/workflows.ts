import { proxyActivities } from '@temporalio/workflow';
import type { BaselineActivities } from './activities';

/**
 * The hand-written baseline the DAG interpreter is measured against: the smallest honest Temporal workflow that
 * calls the same tool code (json_transform's execute) `steps` times in sequence, on the same server. No run rows,
 * no node states, no interpretation: what a developer would write by hand for a fixed pipeline.
 */
const { transform } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '30s' });

export async function baselineChainWorkflow(steps: number, expression: string, data: unknown): Promise<unknown> {
  let value = data;
  for (let i = 0; i < steps; i += 1) {
    const { result } = await transform({ expression, data: value });
    value = result;
  }
  return value;
}
