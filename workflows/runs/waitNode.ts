import { sleep } from '@temporalio/workflow';
import { parseDuration } from '../../lib/duration';
import { MAX_WAIT_MS } from '../../lib/dag/waits';
import type { EvalContext } from '../../lib/runs/types';
import { evalActivities, nodeError, type ExecEnv, type NodeOutcome } from './execute';
import type { WaitConfig } from './graph';

/**
 * A wait node: a durable timer on the run's own clock (workflow time), so it survives worker and Temporal restarts
 * and is cancelled with the run. `until` written as a `${...}` template is rendered by one local activity first; it
 * may give an ISO 8601 time or epoch milliseconds. A time already past completes at once. `onWaiting` records the
 * target time in the node's state (the runState query shows it while the node waits).
 */
export async function executeWait(env: ExecEnv, config: WaitConfig, context: EvalContext, onWaiting: (until: string) => void): Promise<NodeOutcome> {
  const now = new Date().getTime();
  const target = config.duration !== undefined ? now + parseDuration(config.duration) : await untilOf(env, config.until!, context);
  if (target - now > MAX_WAIT_MS) {
    throw nodeError({ code: 'WAIT_TOO_LONG', message: `${new Date(target).toISOString()} is more than 366 days away`, attempts: 1 });
  }
  const until = new Date(target).toISOString();
  onWaiting(until);
  const waited = Math.max(0, target - now);
  if (waited > 0) await sleep(waited);
  return { output: { until, waited_ms: waited }, attempts: 1 };
}

async function untilOf(env: ExecEnv, until: string, context: EvalContext): Promise<number> {
  const value = until.includes('${')
    ? await evalActivities.runRenderValue({ organizationId: env.organizationId, value: until, context })
    : until;
  const time = typeof value === 'number' ? value : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) {
    const shown = JSON.stringify(value)?.slice(0, 100) ?? String(value);
    throw nodeError({ code: 'WAIT_UNTIL_INVALID', message: `until gave ${shown}: not an ISO 8601 time or epoch milliseconds`, attempts: 1 });
  }
  return time;
}
