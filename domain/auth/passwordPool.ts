import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * bcrypt off the event loop, at a lower CPU priority than the event loop. `bcrypt.compare` (async) runs on libuv's
 * thread pool, whose threads have the same priority as the event-loop thread: a burst of logins then takes both cores
 * and every authenticated read waits for CPU (p99 of GET /api/auth/me x2.9 under login load, docs/benchmarks.md).
 * Here each hash or compare runs synchronously in one of a few worker threads, and each worker lowers its own
 * thread's scheduling priority (Linux applies nice per thread; the worker finds its thread id in
 * /proc/thread-self). The event loop then gets the CPU whenever it has work, while logins still use all the CPU it
 * leaves idle. Elsewhere (no /proc/thread-self) the workers keep the normal priority.
 *
 * The worker's code is a plain script string, not a module path, so it runs the same under tsx, jest and compiled JS.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid)) require('node:os').setPriority(tid, workerData.nice);
} catch {
  // not Linux, or not permitted: normal priority
}
parentPort.on('message', ({ id, op, password, hash, cost }) => {
  try {
    const result = op === 'hash' ? bcrypt.hashSync(password, cost) : bcrypt.compareSync(password, hash);
    parentPort.postMessage({ id, result });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

/** Nice 10: the event loop (nice 0) wins ~9 of 10 slices on a shared core, but logins are never starved. */
const WORKER_NICE = 10;

/**
 * A worker idle this long exits (a new one starts in ~30 ms when needed): a process that stopped logging users in,
 * or a test file's module registry that is gone, does not keep threads and their heaps.
 */
const IDLE_EXIT_MS = 30_000;

type Task = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

interface Pending {
  task: Task;
  resolve(value: string | boolean): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  current: { id: number; pending: Pending } | null;
  idleTimer: NodeJS.Timeout | null;
}

export interface PasswordPool {
  hash(password: string, cost: number): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
}

export function createPasswordPool(size = availableParallelism()): PasswordPool {
  const queue: Pending[] = [];
  const slots: Slot[] = [];
  let nextId = 1;

  function spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bcryptPath: require.resolve('bcrypt'), nice: WORKER_NICE },
    });
    worker.unref(); // idle workers never keep the process alive
    const slot: Slot = { worker, current: null, idleTimer: null };
    worker.on('message', (message: { id: number; result?: string | boolean; error?: string }) => {
      const current = slot.current;
      if (!current || current.id !== message.id) return;
      slot.current = null;
      if (message.error !== undefined) current.pending.reject(new Error(message.error));
      else current.pending.resolve(message.result!);
      dispatch();
    });
    // A worker that dies fails its task and is replaced on the next dispatch.
    const fail = (err: Error): void => {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      slot.current?.pending.reject(err);
      slot.current = null;
      dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`password worker exited (${code})`)));
    slots.push(slot);
    return slot;
  }

  function dispatch(): void {
    while (queue.length > 0) {
      const slot = slots.find((s) => s.current === null) ?? (slots.length < size ? spawn() : undefined);
      if (!slot) return;
      const pending = queue.shift()!;
      const id = nextId++;
      slot.current = { id, pending };
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.worker.ref(); // busy: finish the work before the process may exit
      slot.worker.postMessage({ id, ...pending.task });
    }
    for (const slot of slots) {
      if (slot.current !== null || slot.idleTimer) continue;
      slot.worker.unref();
      slot.idleTimer = setTimeout(() => {
        const index = slots.indexOf(slot);
        if (index >= 0) slots.splice(index, 1); // never handed work again, before it goes
        void slot.worker.terminate();
      }, IDLE_EXIT_MS);
      slot.idleTimer.unref();
    }
  }

  function run<T extends string | boolean>(task: Task): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ task, resolve: resolve as (value: string | boolean) => void, reject });
      dispatch();
    });
  }

  return {
    hash: (password, cost) => run<string>({ op: 'hash', password, cost }),
    compare: (password, hash) => run<boolean>({ op: 'compare', password, hash }),
  };
}
