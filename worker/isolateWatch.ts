import type { Worker as WorkerThread } from 'node:worker_threads';
import { prepareWorkflowThreads } from './workflowThreads';

/**
 * The guard against workflow code that never yields (an endless loop in the interpreter), without its price.
 *
 * Temporal's SDK calls into a workflow's V8 context with `runInContext(context, { timeout })` (the worker's
 * `isolateExecutionTimeout`, 5 s), and for every call Node starts and stops a watchdog thread: ~350 µs against ~3 µs
 * without (measured here), a dozen calls per 1-node run, the largest self time of the workflow thread under run
 * load (docs/benchmarks.md). `watchWorkflowIsolates()` makes the SDK's workflow threads started afterwards run those
 * calls without Node's timeout (workflowThreadSetup.cjs); each call marks its start and end in a buffer shared with
 * this thread, which looks at every thread once per `sampleMs`. A call still running after `timeoutMs` terminates
 * its thread: the SDK then fails the worker, whose process exits to be restarted, and the stuck workflow task times
 * out and is retried elsewhere. Node's timeout failed the one task and kept the thread; a call that never returns
 * is a bug in our own workflow code (tenant expressions run in activities), so loud beats contained here.
 */
export interface IsolateWatchOptions {
  timeoutMs: number;
  sampleMs?: number;
  onStuck(info: { threadId: number; stuckMs: number }): void;
}

interface Watched {
  thread: WorkerThread;
  marks: Int32Array;
  /** The call number last seen, and since when it has been running (0: not in a call then). */
  seenCall: number;
  since: number;
}

/** Whether a thread has been in the same call for at least `timeoutMs` (pure: the watch's decision, unit-tested). */
export function stuckFor(watched: Pick<Watched, 'seenCall' | 'since'>, call: number, inCall: boolean, now: number): { seenCall: number; since: number; stuckMs: number } {
  if (!inCall) return { seenCall: call, since: 0, stuckMs: 0 };
  if (call !== watched.seenCall || watched.since === 0) return { seenCall: call, since: now, stuckMs: 0 };
  return { seenCall: call, since: watched.since, stuckMs: now - watched.since };
}

export function watchWorkflowIsolates({ timeoutMs, sampleMs = 500, onStuck }: IsolateWatchOptions): () => void {
  const watched = new Set<Watched>();
  const timer = setInterval(() => {
    const now = Date.now();
    for (const w of watched) {
      const next = stuckFor(w, Atomics.load(w.marks, 0), Atomics.load(w.marks, 1) === 1, now);
      w.seenCall = next.seenCall;
      w.since = next.since;
      if (next.stuckMs >= timeoutMs) {
        watched.delete(w);
        onStuck({ threadId: w.thread.threadId, stuckMs: next.stuckMs });
        void w.thread.terminate();
      }
    }
  }, sampleMs);
  timer.unref();
  // Two int32: the number of the current (or last) call, and 1 while in a call.
  const restore = prepareWorkflowThreads(() => ({ loomCallWatch: new SharedArrayBuffer(8) }), (thread, options) => {
    const buffer = (options.workerData as { loomCallWatch: SharedArrayBuffer }).loomCallWatch;
    const entry: Watched = { thread, marks: new Int32Array(buffer), seenCall: 0, since: 0 };
    watched.add(entry);
    thread.once('exit', () => watched.delete(entry));
  });
  return () => {
    restore();
    clearInterval(timer);
  };
}
