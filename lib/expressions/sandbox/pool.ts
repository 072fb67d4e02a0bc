import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ExpressionError } from '../errors';
import type { SandboxReply, SandboxTask } from './protocol';

/**
 * A few long-lived ("warm") threads that evaluate user expressions. The caller awaits an answer; when a task passes
 * its deadline the pool terminates that thread (V8 stops JavaScript wherever it is, even inside one long JSONata
 * step or a regex match), answers EXPRESSION_TIMEOUT and starts a fresh thread for the next task. The deadline
 * counts from when a thread starts the task, so a task queued behind a slow one is not charged for the wait.
 *
 * The thread's code is thread.ts: compiled JavaScript in production, TypeScript (through tsx, which is a
 * dependency) under tsx and jest, chosen by this file's own extension.
 */
const BOOT_SOURCE = `
const { workerData } = require('node:worker_threads');
if (workerData.tsxApi) require(workerData.tsxApi).register();
require(workerData.entry);
`;

/** An idle thread exits after this long (a new one boots on the next task), so a quiet process keeps no threads. */
const IDLE_EXIT_MS = 60_000;

interface Pending {
  task: SandboxTask;
  deadlineMs: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: { id: number; pending: Pending; timer: NodeJS.Timeout } | null;
  idleTimer: NodeJS.Timeout | null;
}

export interface SandboxPool {
  run(task: SandboxTask, deadlineMs: number): Promise<unknown>;
  /** Ends every thread (tests, shutdown); queued tasks fail. */
  close(): Promise<void>;
}

function bootData(): { entry: string; tsxApi: string | null } {
  const typescript = path.extname(__filename) === '.ts';
  return {
    entry: path.join(__dirname, `thread${typescript ? '.ts' : '.js'}`),
    tsxApi: typescript ? require.resolve('tsx/cjs/api') : null,
  };
}

function exitFailure(code: number): ExpressionError {
  return new ExpressionError('EXPRESSION_FAILED', `the expression sandbox stopped unexpectedly (exit ${code})`);
}

export function createSandboxPool(size: number): SandboxPool {
  const queue: Pending[] = [];
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
    if ('error' in outcome) current.pending.reject(outcome.error);
    else current.pending.resolve(outcome.value);
  }

  function spawn(): Slot {
    // No resourceLimits heap cap: when a capped thread's single allocation passes the cap (`$pad("", 4e8)` in
    // JSONata), V8 aborts the whole process instead of ending the thread (measured on Node 20.20). Memory is bounded
    // by the engines' limits (sequence length, result size) and the deadline instead.
    const worker = new Worker(BOOT_SOURCE, { eval: true, workerData: bootData() });
    worker.unref();
    const slot: Slot = { worker, ready: false, current: null, idleTimer: null };
    let lastError: Error | null = null;
    worker.on('message', (reply: SandboxReply) => {
      if ('ready' in reply) {
        slot.ready = true;
      } else if (slot.current?.id === reply.id) {
        settle(slot, reply.ok ? { value: reply.result } : { error: new ExpressionError(reply.code, reply.message) });
      }
      dispatch();
    });
    worker.on('error', (err) => {
      lastError = err;
    });
    worker.on('exit', (code) => {
      remove(slot);
      settle(slot, { error: exitFailure(code) });
      // A thread that cannot even boot would fail every task: fail them now instead of respawning forever.
      if (!slot.ready && lastError && !closed) {
        const bootError = new ExpressionError('EXPRESSION_FAILED', 'the expression sandbox could not start');
        for (const pending of queue.splice(0)) pending.reject(bootError);
      }
      dispatch();
    });
    slots.push(slot);
    return slot;
  }

  function start(slot: Slot, pending: Pending): void {
    const id = nextId++;
    const timer = setTimeout(() => {
      remove(slot); // never handed work again
      settle(slot, { error: new ExpressionError('EXPRESSION_TIMEOUT', `expression ran longer than ${pending.deadlineMs} ms and was stopped`) });
      void slot.worker.terminate();
      dispatch();
    }, pending.deadlineMs);
    slot.current = { id, pending, timer };
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.worker.ref(); // busy: finish the work before the process may exit
    try {
      slot.worker.postMessage({ id, ...pending.task });
    } catch {
      settle(slot, { error: new ExpressionError('EXPRESSION_FAILED', 'the expression data cannot be passed to the sandbox (not plain JSON)') });
    }
  }

  function dispatch(): void {
    if (closed) return;
    while (queue.length > 0) {
      const free = slots.find((s) => s.ready && s.current === null);
      if (!free) {
        // Boot another thread when every live one is busy (booting ones count as capacity on their way).
        if (slots.length < size) spawn();
        return;
      }
      start(free, queue.shift()!);
    }
    for (const slot of slots) {
      if (!slot.ready || slot.current !== null || slot.idleTimer) continue;
      slot.worker.unref();
      slot.idleTimer = setTimeout(() => {
        remove(slot);
        void slot.worker.terminate();
      }, IDLE_EXIT_MS);
      slot.idleTimer.unref();
    }
  }

  return {
    run(task, deadlineMs) {
      if (closed) return Promise.reject(new ExpressionError('EXPRESSION_FAILED', 'the expression sandbox is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ task, deadlineMs, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      const error = new ExpressionError('EXPRESSION_FAILED', 'the expression sandbox is closed');
      for (const pending of queue.splice(0)) pending.reject(error);
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}
