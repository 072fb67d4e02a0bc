import type { ChildProcess } from 'node:child_process';
import { FairQueue } from '../../fairQueue';
import { spawnNodeChild } from '../../nodeChild';
import { processCpuMs } from '../../processCpu';
import { ExpressionError } from '../errors';
import { childStderr } from './childStderr';
import { ResultInFile, type SandboxReply, type SandboxTask } from './protocol';

/**
 * A few long-lived ("warm") child processes that evaluate user expressions. The caller awaits an answer; when a
 * task passes its deadline the pool kills that process (which stops JavaScript wherever it is, even inside one
 * long JSONata step or a regex match), answers EXPRESSION_TIMEOUT and starts a fresh process for the next task.
 * The deadline counts from when a process starts the task, so a task queued behind a slow one is not charged for
 * the wait.
 *
 * Processes, not worker threads: V8 aborts the whole process when one allocation passes a hard limit (an array
 * past its maximum length: `$length` of a 300-million-character string in JSONata, or `(l + l)` doubled eight times
 * over a list in CEL; a heap cap). In a thread that took the API or the worker down with it; in a child it ends
 * only the child, and the task that did it is answered EXPRESSION_TOO_COMPLEX. The child's heap is capped too.
 *
 * The child's code is child.ts, started by lib/nodeChild.ts (empty environment, heap cap, no core dumps).
 *
 * Tasks wait in a fair queue (lib/fairQueue.ts), keyed by the organization they are evaluated for: a free process
 * goes to the organization holding the fewest, in turn, and one organization holds at most `size - 1` processes, so
 * a tenant whose expressions all run into their deadline leaves a process for every other tenant (first come first
 * served, its queue of deadline-long tasks held another tenant's one-millisecond condition for seconds).
 */

/** Old-generation heap of one sandbox process: content extraction hands JSONata files of up to 100 MB. */
export const SANDBOX_HEAP_MB = 1024;

/** An idle process exits after this long (a new one boots on the next task), so a quiet process keeps none. */
const IDLE_EXIT_MS = 60_000;
/** A process that has not said it is ready by then is killed, and the tasks waiting for it fail. */
const BOOT_TIMEOUT_MS = 30_000;
/**
 * The deadline starts when the process has the task (it says so first): a large input (a 100 MB text for a regex)
 * takes about a second to pass, which must not eat the evaluation's own time. Passing may take this long at most.
 */
const TRANSFER_TIMEOUT_MS = 30_000;
/**
 * How a child ends when V8 gives up on an allocation: a fatal error traps (SIGTRAP, SIGILL on some CPUs), the heap
 * cap aborts (SIGABRT), the kernel's OOM killer sends SIGKILL. Any other end is the sandbox's failure, not the task's.
 */
const ALLOCATION_DEATHS = new Set<NodeJS.Signals>(['SIGTRAP', 'SIGILL', 'SIGABRT', 'SIGKILL']);

interface Pending {
  task: SandboxTask;
  /** The fairness key: the organization the task is evaluated for ('' for none). */
  key: string;
  deadlineMs: number;
  prepare?: () => Promise<void>;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  /** `timer`: the transfer limit until the child has the task, then the task's deadline */
  current: { id: number; pending: Pending; timer: NodeJS.Timeout } | null;
  idleTimer: NodeJS.Timeout | null;
  /** Set when a timer stopped the task: the answer, unless the process turns out to have died on its own. */
  stoppedWith: ExpressionError | null;
}

/** A task starved of CPU (watchDeadline) gets at most this many times its deadline of wall-clock time… */
const STARVED_STRETCH = 4;
/** …and at most this much more than its deadline. */
const STARVED_EXTRA_MAX_MS = 30_000;
/** CPU time is counted in 10 ms ticks: a task this close to its deadline has spent it. */
const CPU_SLACK_MS = 20;
const MIN_RECHECK_MS = 20;

/** How long a process stopped at its deadline has to report its end before the task is answered anyway. */
const EXIT_WAIT_MS = 2000;

export interface SandboxPool {
  /**
   * `key`: the organization the task is evaluated for, its share of the processes; '' for work of no organization.
   * `prepare`: work done when a process takes the task, not while it waits (writing its input file): a task queued
   * behind others holds nothing but its place. Its time counts against the transfer limit, not the deadline.
   */
  run(task: SandboxTask, deadlineMs: number, key?: string, prepare?: () => Promise<void>): Promise<unknown>;
  /** Ends every process (tests, shutdown); queued tasks fail. */
  close(): Promise<void>;
}

/**
 * A process that ended in the middle of a task. Killed by V8 over an allocation the task asked for (its report is
 * on stderr): the task's fault, said plainly. Otherwise the sandbox failed, whatever the task was.
 */
function endedFailure(code: number | null, signal: NodeJS.Signals | null, allocationReport = false): ExpressionError {
  if ((signal && ALLOCATION_DEATHS.has(signal)) || allocationReport) {
    return new ExpressionError('EXPRESSION_TOO_COMPLEX', 'the expression needed more memory than the sandbox allows and was stopped');
  }
  return new ExpressionError('EXPRESSION_FAILED', `the expression sandbox stopped unexpectedly (${signal ?? `exit ${code}`})`);
}

/** Kills a child and resolves once it is gone. */
function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.ref(); // whoever awaits this is not left with an empty event loop before the exit arrives
    child.kill('SIGKILL');
  });
}

/** Holds the event loop while the child works, lets it go when the child idles (the IPC channel counts too). */
function setHeld(child: ChildProcess, held: boolean): void {
  // The stderr pipe is a handle of its own: left referenced, an idle sandbox would keep its process from exiting.
  const stderr = child.stderr as (NodeJS.ReadableStream & { ref?(): void; unref?(): void }) | null;
  if (held) {
    child.ref();
    child.channel?.ref();
    stderr?.ref?.();
  } else {
    child.unref();
    child.channel?.unref();
    stderr?.unref?.();
  }
}

function spawnChild(nice: number | undefined): ChildProcess {
  return spawnNodeChild(__filename, 'child', {
    heapMb: SANDBOX_HEAP_MB,
    ...(nice !== undefined ? { nice } : {}),
    // V8's own report of an abort is read (it tells an allocation death from our kill) and said in one line of the
    // parent's log, where operators read it (childStderr.ts).
    stderr: 'pipe',
    // JSON, not 'advanced' (structured clone): tasks and answers are plain JSON, and it costs ~20 µs less per trip.
    serialization: 'json',
  });
}

export interface SandboxPoolOptions {
  /** The processes' nice value (lib/nodeChild.ts): a lane of heavy tenant work yields the CPU to the platform. */
  nice?: number;
  /** Where the processes' stderr lines go (childStderr.ts); this process's stderr by default. */
  log?: (line: string) => void;
}

/** The default place for a sandbox process's lines: this process's stderr. */
export const logToStderr = (line: string): void => void process.stderr.write(`${line}\n`);

export function createSandboxPool(size: number, options: SandboxPoolOptions = {}): SandboxPool {
  const queue = new FairQueue<Pending>(Math.max(1, size - 1));
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  function remove(slot: Slot): void {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  function settle(slot: Slot, outcome: { value: unknown } | { error: Error }): void {
    const current = slot.current;
    if (!current) return;
    clearTimeout(current.timer);
    slot.current = null;
    queue.release(current.pending.key);
    if ('error' in outcome) current.pending.reject(outcome.error);
    else current.pending.resolve(outcome.value);
  }

  /** A process that cannot even boot would fail every task: fail them now instead of respawning forever. */
  function failQueue(why: string): void {
    const bootError = new ExpressionError('EXPRESSION_FAILED', `the expression sandbox could not start (${why})`);
    for (const pending of queue.drain()) pending.reject(bootError);
  }

  /**
   * Stops a slot's work: a timer fired. The slot is never handed work again. The task is answered when the process
   * is gone, not before: a process V8 is already aborting over an allocation (printing its report, dumping core on
   * a loaded machine) can pass the deadline on its way out, and that task needed too much memory, it did not run
   * too long. Its exit signal tells which (ours is SIGKILL).
   */
  function abandon(slot: Slot, error: ExpressionError): void {
    remove(slot);
    slot.stoppedWith = error;
    const fallback = setTimeout(() => settle(slot, { error }), EXIT_WAIT_MS);
    void stop(slot.child).then(() => clearTimeout(fallback));
    dispatch();
  }

  function spawn(): void {
    let child: ChildProcess;
    try {
      // Held while it boots: a task is waiting for it (dispatch lets it go once it idles).
      child = spawnChild(options.nice);
    } catch (err) {
      failQueue((err as NodeJS.ErrnoException).code ?? 'spawn failed'); // e.g. ENOMEM, which Node throws
      return;
    }
    const slot: Slot = { child, ready: false, current: null, idleTimer: null, stoppedWith: null };
    const stderr = childStderr(`expression sandbox ${child.pid ?? '(not started)'}`, SANDBOX_HEAP_MB, options.log ?? logToStderr);
    child.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
    const bootTimer = setTimeout(() => void stop(child), BOOT_TIMEOUT_MS);
    bootTimer.unref();
    let ended = false;
    const onEnded = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (ended) return;
      ended = true;
      clearTimeout(bootTimer);
      remove(slot);
      if (!slot.ready && !closed) failQueue(signal ?? `exit ${code}`);
      let answered = false;
      const answer = (): void => {
        if (answered) return;
        answered = true;
        stderr.end();
        const stopped = slot.stoppedWith;
        const killedByUs = stopped !== null && signal === 'SIGKILL' && !stderr.allocationReport;
        settle(slot, { error: killedByUs ? stopped : endedFailure(code, signal, stderr.allocationReport) });
        dispatch();
      };
      // V8's report may still be in the pipe when the exit arrives: read it to its end before telling why.
      const pipe = child.stderr;
      if (pipe && !pipe.readableEnded && !pipe.destroyed) {
        pipe.once('end', answer);
        pipe.once('close', answer);
        setTimeout(answer, EXIT_WAIT_MS).unref();
      } else answer();
    };
    child.on('message', (reply: SandboxReply) => {
      const current = slot.current;
      if ('ready' in reply) {
        clearTimeout(bootTimer);
        slot.ready = true;
      } else if (current?.id !== reply.id) {
        return; // an answer to a task already settled (its deadline passed meanwhile)
      } else if ('started' in reply) {
        clearTimeout(current.timer);
        watchDeadline(slot, current);
        return;
      } else {
        if (!reply.ok) settle(slot, { error: new ExpressionError(reply.code, reply.message) });
        else settle(slot, { value: 'written' in reply ? new ResultInFile(reply.written) : reply.result });
      }
      dispatch();
    });
    child.on('exit', onEnded);
    // Spawning failed (no 'exit' is promised then), or the channel broke; a live child is ended by 'exit'.
    child.on('error', () => {
      if (child.pid === undefined) onEnded(null, null);
    });
    slots.push(slot);
  }

  /**
   * The deadline counts the CPU time the task got, not the time it waited for a core: on a saturated machine a lane
   * at a low priority (the data lane, nice 10) gets a tenth of a core, and a task that needs 300 ms would be stopped
   * at a 2 s deadline it never used. When the wall-clock deadline passes, the process's CPU time since the task
   * started decides: spent, the task is stopped; not, it gets the rest, up to STARVED_STRETCH times its deadline
   * (and at most STARVED_EXTRA_MAX_MS more) of wall-clock time. Where CPU time cannot be read, wall-clock decides.
   */
  function watchDeadline(slot: Slot, current: NonNullable<Slot['current']>): void {
    const { deadlineMs } = current.pending;
    const startedAt = Date.now();
    const cpuAtStart = processCpuMs(slot.child.pid);
    const wallLimitMs = Math.min(deadlineMs * STARVED_STRETCH, deadlineMs + STARVED_EXTRA_MAX_MS);
    const stop = (): void => abandon(slot, new ExpressionError('EXPRESSION_TIMEOUT', `expression ran longer than ${deadlineMs} ms and was stopped`));
    const check = (): void => {
      if (slot.current !== current) return;
      const cpuNow = processCpuMs(slot.child.pid);
      const waitedMs = Date.now() - startedAt;
      const usedMs = cpuAtStart === null || cpuNow === null ? null : cpuNow - cpuAtStart;
      if (usedMs === null || usedMs >= deadlineMs - CPU_SLACK_MS || waitedMs >= wallLimitMs) return stop();
      current.timer = setTimeout(check, Math.max(MIN_RECHECK_MS, Math.min(deadlineMs - usedMs, wallLimitMs - waitedMs)));
    };
    current.timer = setTimeout(check, deadlineMs);
  }

  function start(slot: Slot, pending: Pending): void {
    const id = nextId++;
    const timer = setTimeout(() => {
      abandon(slot, new ExpressionError('EXPRESSION_TIMEOUT', `the expression's data took longer than ${TRANSFER_TIMEOUT_MS} ms to reach the sandbox`));
    }, TRANSFER_TIMEOUT_MS);
    slot.current = { id, pending, timer };
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    setHeld(slot.child, true); // busy: finish the work before the process may exit
    if (pending.prepare) {
      pending.prepare().then(
        () => send(slot, id, pending),
        (err: unknown) => {
          if (slot.current?.id !== id) return;
          const why = (err as NodeJS.ErrnoException).code ?? 'failed';
          settle(slot, { error: new ExpressionError('EXPRESSION_FAILED', `the expression's data could not be prepared for the sandbox (${why})`) });
          dispatch();
        },
      );
    } else send(slot, id, pending);
  }

  function send(slot: Slot, id: number, pending: Pending): void {
    // Settled meanwhile (a deadline, close()): the process is no longer this task's.
    if (slot.current?.id !== id) return;
    try {
      // A failed write means the child is gone: its 'exit' answers the task.
      slot.child.send({ id, ...pending.task }, () => undefined);
    } catch {
      settle(slot, { error: new ExpressionError('EXPRESSION_FAILED', 'the expression data cannot be passed to the sandbox (not plain JSON)') });
      dispatch();
    }
  }

  function dispatch(): void {
    if (closed) return;
    // Only tasks whose organization is under its share count: a process left free for others stays free.
    while (queue.hasEligible()) {
      const free = slots.find((s) => s.ready && s.current === null);
      if (!free) {
        // Boot another process when every live one is busy (booting ones count as capacity on their way).
        if (slots.length < size) spawn();
        return;
      }
      start(free, queue.take()!.item);
    }
    for (const slot of slots) {
      if (!slot.ready || slot.current !== null || slot.idleTimer) continue;
      setHeld(slot.child, false);
      slot.idleTimer = setTimeout(() => {
        remove(slot);
        void stop(slot.child);
      }, IDLE_EXIT_MS);
      slot.idleTimer.unref();
    }
  }

  return {
    run(task, deadlineMs, key = '', prepare) {
      if (closed) return Promise.reject(new ExpressionError('EXPRESSION_FAILED', 'the expression sandbox is closed'));
      return new Promise((resolve, reject) => {
        queue.push(key, { task, key, deadlineMs, resolve, reject, ...(prepare ? { prepare } : {}) });
        dispatch();
      });
    },
    async close() {
      closed = true;
      const error = new ExpressionError('EXPRESSION_FAILED', 'the expression sandbox is closed');
      for (const pending of queue.drain()) pending.reject(error);
      const all = [...slots];
      for (const slot of all) {
        remove(slot);
        settle(slot, { error }); // before the kill, so an in-flight task is told why, not "stopped unexpectedly"
      }
      await Promise.all(all.map((slot) => stop(slot.child)));
    },
  };
}
