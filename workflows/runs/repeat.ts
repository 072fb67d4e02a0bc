import { isCancellation } from '@temporalio/workflow';
import type { EvalContext } from '../../lib/runs/types';
import { evalActivities, nodeError, toNodeFailure, type ExecEnv, type NodeOutcome } from './execute';
import type { RepeatConfig } from './graph';
import { runTemplate } from './loop';
import type { ResolvedStrategy } from './strategy';

/**
 * A repeat node: its template runs again and again, one iteration after another, while `while` holds (checked
 * before each) or until `until` holds (checked after each), at most `max_iterations` times. The template and the
 * conditions see the previous iteration's output as `last` and its index as `last_index` (null and -1 before the
 * first). Each iteration is an activity (or child run) of its own, `<node>[<i>]`; a failed one fails the node.
 */
export async function executeRepeat(
  env: ExecEnv,
  nodeId: string,
  config: RepeatConfig,
  strategy: ResolvedStrategy,
  context: EvalContext,
): Promise<NodeOutcome> {
  let last: unknown = null;
  let count = 0;
  const withLast = (): EvalContext => ({ ...context, iterator: { name: 'last', value: last, index: count - 1 } });
  const holds = async (expression: string): Promise<boolean> =>
    (await evalActivities.runEvaluateCondition({ organizationId: env.organizationId, expression, context: withLast() })).result;
  const done = (exhausted: boolean): NodeOutcome => ({ output: { last, count, exhausted }, attempts: 1 });
  try {
    while (count < config.max_iterations) {
      if (config.while !== undefined && !(await holds(config.while))) return done(false);
      last = await runTemplate(env, `${nodeId}[${count}]`, config.template, strategy, withLast());
      count += 1;
      if (config.until !== undefined && (await holds(config.until))) return done(false);
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    const failure = toNodeFailure(err, 1);
    throw nodeError({ ...failure, message: `iteration ${count}: ${failure.message}` });
  }
  return done(true);
}
