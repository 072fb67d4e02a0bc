import { flowKeyExpressions, type FlowControl } from '../../lib/dag/flowControl';
import { AppError } from '../../lib/errors';
import { ExpressionError, evaluateCel } from '../../lib/expressions/sandbox';
import { FlowKeyError, flowKeyValue, type FlowKeys } from '../../lib/runs/flowPlan';
import type { RunTrigger } from '../../lib/runs/types';

/**
 * A run's place in its workflow's flow control, decided once when it starts (every door: API starts, retries,
 * reruns, triggers): the groups its controls put it in (the key expressions evaluated in the expression sandbox,
 * over `params` and `trigger`), its priority and its singleton key. Stored on the run row (insertRun); the run's
 * input is built from the row (launch.ts runInputOf).
 */
export interface RunFlowPlacement {
  keys: FlowKeys;
  priority: number | null;
  singletonKey: string | null;
}

/**
 * Null for a workflow without flow control and a start that asks for no priority. Throws AppError
 * FLOW_KEY_INVALID (422) when a key expression fails or gives no usable group.
 */
export async function placeRun(
  organizationId: string,
  flow: FlowControl | undefined,
  parameters: Record<string, unknown>,
  trigger: RunTrigger,
  requestedPriority?: number | null,
): Promise<RunFlowPlacement | null> {
  if (!flow && (requestedPriority === null || requestedPriority === undefined)) return null;
  const keys: FlowKeys = {};
  const context = { params: parameters, trigger };
  for (const [control, text] of Object.entries(flowKeyExpressions(flow ?? {}))) {
    try {
      keys[control as keyof FlowKeys] = flowKeyValue(control, await evaluateCel(text, context, {}, organizationId));
    } catch (err) {
      if (err instanceof FlowKeyError) throw new AppError('FLOW_KEY_INVALID', err.message);
      if (err instanceof ExpressionError) throw new AppError('FLOW_KEY_INVALID', `the ${control} key expression failed: ${err.message}`);
      throw err;
    }
  }
  const singletonKey = flow?.singleton ? (keys.singleton ?? '') : null;
  return { keys, priority: requestedPriority ?? flow?.priority ?? null, singletonKey };
}
