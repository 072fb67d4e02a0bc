import type { Db } from '../../db/knex';
import type { ListenConnection, PgNotification } from '../../db/listen';

/**
 * Notices of finished runs: PostgreSQL sends one on channel `loom_run_finished` (payload: the run id) when a run's
 * row turns final (trigger `workflow_runs_finished_notify`, migration 1051), whoever wrote it (the worker's final
 * write, the API's reconciliation, a cancellation). Delivered at the commit, so a run read after its notice is final.
 *
 * One LISTEN connection per process, taken from the knex pool while someone waits and given back after
 * `LINGER_MS` without waiters (a pool being destroyed waits for it, so it is never held for long). A notice can be
 * missed (the connection broke, the run ended before `LISTEN` took effect): callers race it with Temporal's result,
 * which never misses (domain/runs/wait.ts).
 */

export const RUN_FINISHED_CHANNEL = 'loom_run_finished';
const LINGER_MS = 2000;

export interface RunFinishNotices {
  /** Resolves when the notice of `runId` arrives; never rejects; `signal` ends the wait (the promise then stays pending). */
  next(runId: string, signal: AbortSignal): Promise<void>;
}

export function createRunFinishNotices(db: Db, log?: (err: unknown, message: string) => void): RunFinishNotices {
  const waiters = new Map<string, Set<() => void>>();
  let connection: ListenConnection | null = null;
  let connecting: Promise<void> | null = null;
  let lingerTimer: NodeJS.Timeout | null = null;

  const onNotification = (message: PgNotification): void => {
    if (message.channel !== RUN_FINISHED_CHANNEL || !message.payload) return;
    const set = waiters.get(message.payload);
    if (!set) return;
    waiters.delete(message.payload);
    for (const wake of set) wake();
  };

  /** Gives the connection back (broken or idle); the next waiter listens again. */
  async function release(unlisten: boolean): Promise<void> {
    const held = connection;
    connection = null;
    if (!held) return;
    held.removeListener('notification', onNotification);
    held.removeListener('error', onBroken);
    held.removeListener('end', onBroken);
    // A connection given back still listening would wake nobody but would be wasted on notices: stop them first.
    if (unlisten) await held.query(`UNLISTEN ${RUN_FINISHED_CHANNEL}`).catch(() => undefined);
    await db.client.releaseConnection(held).catch(() => undefined);
  }

  function onBroken(): void {
    void release(false);
  }

  async function listen(): Promise<void> {
    if (connection) return;
    connecting ??= (async () => {
      const held = (await db.client.acquireConnection()) as ListenConnection;
      try {
        await held.query(`LISTEN ${RUN_FINISHED_CHANNEL}`);
      } catch (err) {
        await db.client.releaseConnection(held).catch(() => undefined);
        throw err;
      }
      held.on('notification', onNotification);
      held.on('error', onBroken);
      held.on('end', onBroken);
      connection = held;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  function scheduleLinger(): void {
    if (lingerTimer || waiters.size) return;
    lingerTimer = setTimeout(() => {
      lingerTimer = null;
      if (!waiters.size) void release(true);
    }, LINGER_MS);
    lingerTimer.unref();
  }

  return {
    next(runId, signal) {
      return new Promise<void>((resolve) => {
        if (signal.aborted) return;
        if (lingerTimer) {
          clearTimeout(lingerTimer);
          lingerTimer = null;
        }
        const wake = (): void => {
          signal.removeEventListener('abort', forget);
          scheduleLinger();
          resolve();
        };
        const forget = (): void => {
          const set = waiters.get(runId);
          set?.delete(wake);
          if (set && !set.size) waiters.delete(runId);
          scheduleLinger();
        };
        const set = waiters.get(runId) ?? new Set();
        set.add(wake);
        waiters.set(runId, set);
        signal.addEventListener('abort', forget, { once: true });
        listen().catch((err: unknown) => log?.(err, 'listening for finished runs failed; waiting on Temporal alone'));
      });
    },
  };
}
