import { availableParallelism } from 'node:os';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { loadConfig } from '../../lib/config';
import { createTemporalClient } from '../../lib/temporal';
import { flowTaskQueue } from '../../lib/runs/flowGate';

export interface ReplayReport {
  replayed: number;
  failures: { workflowId: string; error: string }[];
  ms: number;
}

/**
 * Replays, from the first event, every closed execution the test run's worker produced (all workflow types:
 * runs, loop batches, lifecycles, triggers), against the same workflow bundle. Workflow code that is not
 * deterministic fails here even when the live worker served it from its cache.
 *
 * Why not a zero workflow cache on the test worker instead: the SDK core (1.24) evicts a run with local
 * activities in flight when the cache is zero ("local activities when using max_cached_workflows=0 are likely to
 * be dropped or retried"); measured here, such runs hit the 10 s workflow task timeout and resumed up to a minute
 * later, so the suite slowed down and timed out at random. Replaying every finished history checks the same
 * property (every workflow task's commands follow from its history) without that defect.
 */
export async function replayTestHistories(taskQueue: string, bundlePath: string): Promise<ReplayReport> {
  const started = Date.now();
  quietRuntime();
  const client = createTemporalClient(loadConfig(process.env).temporal);
  const failures: ReplayReport['failures'] = [];
  let replayed = 0;
  try {
    // The runs' task queue and the flow gates' own (lib/runs/flowGate.ts): gates that ended within the run replay too.
    const queues = `(TaskQueue = '${taskQueue}' OR TaskQueue = '${flowTaskQueue(taskQueue)}')`;
    const listed = client.workflow
      .list({ query: `${queues} AND ExecutionStatus != 'Running'` })
      .intoHistories({ concurrency: 8, bufferLimit: 32 });
    const histories = listed[Symbol.asyncIterator]();
    // A replay worker takes one history at a time and waits for its result: several side by side overlap those waits.
    await Promise.all(
      Array.from({ length: REPLAY_WORKERS }, async () => {
        for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath: bundlePath } }, takeFrom(histories))) {
          replayed++;
          if (result.error) failures.push({ workflowId: result.workflowId, error: result.error.message });
        }
      }),
    );
  } finally {
    await client.connection.close();
  }
  return { replayed, failures, ms: Date.now() - started };
}

/** Replay workers side by side, each taking the next history from the one list. */
const REPLAY_WORKERS = Math.max(1, Math.min(4, availableParallelism()));

/** One consumer's view of a shared iterator: async generators queue concurrent `next()` calls, so each item goes to one. */
async function* takeFrom<T>(source: AsyncIterator<T>): AsyncGenerator<T> {
  for (;;) {
    const next = await source.next();
    if (next.done) return;
    yield next.value;
  }
}

/** The replay worker logs each start and stop at INFO; only warnings matter here. */
function quietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // already installed in this process: keep its logger
  }
}
