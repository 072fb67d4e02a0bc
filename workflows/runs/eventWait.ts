import { CancellationScope, condition, proxyActivities } from '@temporalio/workflow';
import type { EventWaitActivities } from '../../activities/runs/eventWaits';
import { parseDuration } from '../../lib/duration';
import type { WaitedEvent } from '../../lib/runs/eventWait';
import type { EvalContext } from '../../lib/runs/types';
import { nodeError, type ExecEnv, type NodeOutcome } from './execute';
import type { WaitForEventConfig } from './graph';

/** Recording and ending a wait: database writes and, at the start, a look-back that evaluates the match. */
const waits = proxyActivities<EventWaitActivities>({ startToCloseTimeout: '60s', retry: { maximumAttempts: 5, initialInterval: '500ms' } });

/** How the interpreter hands a node the event the dispatcher signalled (EVENT_ARRIVED_SIGNAL, dagRun.ts). */
export type EventWaiters = Map<string, (event: WaitedEvent) => void>;

/**
 * A wait_for_event node. Its wait is recorded (with what its match may read), so that the event dispatcher can wake
 * it with a signal; an event of its type published since the node started (or within `lookback` before) is taken at
 * once. Then a durable condition with the timeout: an event, the timeout (fail with WAIT_TIMEOUT, or continue), or
 * the run's cancellation ends it, and the recorded wait is removed whatever ended it.
 */
export async function executeWaitForEvent(
  env: ExecEnv,
  nodeId: string,
  config: WaitForEventConfig,
  context: EvalContext,
  waiters: EventWaiters,
  onWaiting: (until: string) => void,
): Promise<NodeOutcome> {
  const startedAt = new Date().getTime();
  const timeoutMs = parseDuration(config.timeout);
  const expiresAt = new Date(startedAt + timeoutMs).toISOString();
  const key = { organizationId: env.organizationId, runId: env.runId, nodeId };
  let event: WaitedEvent | undefined;
  // Before the start activity: a signal that comes while it runs is kept.
  waiters.set(nodeId, (arrived) => {
    event ??= arrived;
  });
  try {
    const found = await waits.runEventWaitStart({
      ...key,
      eventType: config.event,
      match: config.match ?? null,
      context,
      since: new Date(startedAt - parseDuration(config.lookback)).toISOString(),
      expiresAt,
    });
    event ??= found.event ?? undefined;
    onWaiting(expiresAt);
    const left = startedAt + timeoutMs - new Date().getTime();
    if (event === undefined && left > 0) await condition(() => event !== undefined, left);
  } finally {
    waiters.delete(nodeId);
    // Whatever ended the wait (an event, the timeout, a cancellation): the dispatcher stops waking it.
    await CancellationScope.nonCancellable(() => waits.runEventWaitEnd(key));
  }
  if (event !== undefined) return { output: { event, timed_out: false }, attempts: 1 };
  if (config.on_timeout === 'continue') return { output: { event: null, timed_out: true }, attempts: 1 };
  throw nodeError({ code: 'WAIT_TIMEOUT', message: `no ${config.event} event matched within ${config.timeout}`, attempts: 1 });
}
