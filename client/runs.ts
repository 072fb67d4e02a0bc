import type { Client } from 'openapi-fetch';
import { RunWaitTimeoutError, unwrap } from './errors';
import type { components, paths } from './generated/schema';

export type Run = components['schemas']['Run'];
export type FinishedRunStatus = 'completed' | 'failed' | 'cancelled';
/** A run that has ended; its `results` and `errors` are final (docs/runs.md#lifecycle). */
export type FinishedRun = Run & { status: FinishedRunStatus };

const FINISHED_STATUSES: ReadonlySet<string> = new Set<FinishedRunStatus>(['completed', 'failed', 'cancelled']);

export function isFinished(run: Run): run is FinishedRun {
  return FINISHED_STATUSES.has(run.status);
}

export interface WaitForRunOptions {
  /** Give up after this long (default 60 s) with a `RunWaitTimeoutError` carrying the run as last seen. */
  timeoutMs?: number;
  /** The first pause between two reads (default 250 ms); each pause is 1.5 times the previous one... */
  pollIntervalMs?: number;
  /** ...up to this (default 5 s). */
  maxPollIntervalMs?: number;
  /** Aborting rejects with the signal's reason and stops polling. */
  signal?: AbortSignal;
}

/**
 * Reads the run until it has finished (`completed`, `failed` or `cancelled`, whatever the end) and answers it.
 * The API waits server-side only when a run is started (`POST .../runs?wait=`); reading a run does not wait, so
 * this polls `GET .../runs/{run_id}` with a growing pause. A finished run is only shown once its final row is stored,
 * so the answer always carries the final `results` and `errors`.
 */
export async function waitForRun(
  client: Client<paths>,
  workflowId: string,
  runId: string,
  options: WaitForRunOptions = {},
): Promise<FinishedRun> {
  const { timeoutMs = 60_000, pollIntervalMs = 250, maxPollIntervalMs = 5_000, signal } = options;
  const deadline = Date.now() + timeoutMs;
  let pause = pollIntervalMs;
  for (;;) {
    signal?.throwIfAborted();
    const run = unwrap(
      await client.GET('/api/v1/workflows/{id}/runs/{run_id}', { params: { path: { id: workflowId, run_id: runId } }, signal }),
    );
    if (isFinished(run)) return run;
    const left = deadline - Date.now();
    if (left <= 0) throw new RunWaitTimeoutError(run, timeoutMs);
    // The last pause ends at the deadline, so the run is read once more right then.
    await sleep(Math.min(pause, left), signal);
    pause = Math.min(pause * 1.5, Math.max(maxPollIntervalMs, pollIntervalMs));
  }
}

export interface StartRunAndWaitOptions {
  /**
   * How long to wait in all (default 60 s). The API is asked to wait that long itself (`?wait=`); when it answers
   * earlier with the run still open (202: its RUN_WAIT_MAX is shorter, or the run waits for an approval), the rest is
   * spent polling (`waitForRun`). Past it, `RunWaitTimeoutError`.
   */
  waitSeconds?: number;
  /** Sent as `Idempotency-Key`: repeating the call with the same key starts nothing and waits for the same run. */
  idempotencyKey?: string;
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  signal?: AbortSignal;
}

/** Starts a run of the workflow's current version and answers it once finished (docs/runs.md#run-and-wait). */
export async function startRunAndWait(
  client: Client<paths>,
  workflowId: string,
  parameters: Record<string, unknown> = {},
  options: StartRunAndWaitOptions = {},
): Promise<FinishedRun> {
  const { waitSeconds = 60, idempotencyKey, signal, ...polling } = options;
  const waitMs = Math.max(0, Math.round(waitSeconds * 1000));
  const deadline = Date.now() + waitMs;
  const result = await client.POST('/api/v1/workflows/{id}/runs', {
    params: {
      path: { id: workflowId },
      query: { wait: `${waitMs}ms` },
      ...(idempotencyKey === undefined ? {} : { header: { 'Idempotency-Key': idempotencyKey } }),
    },
    body: { parameters },
    signal,
  });
  const run = unwrap(result);
  if (isFinished(run)) return run;
  // 202 (still open when the API's wait ended) or 201 (the API did not wait, e.g. waitSeconds 0).
  const left = deadline - Date.now();
  if (left <= 0) throw new RunWaitTimeoutError(run, waitMs);
  try {
    return await waitForRun(client, workflowId, run.id, { ...polling, signal, timeoutMs: left });
  } catch (err) {
    // Report the wait the caller asked for, not the remainder that was left for polling.
    if (err instanceof RunWaitTimeoutError) throw new RunWaitTimeoutError(err.run, waitMs);
    throw err;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
