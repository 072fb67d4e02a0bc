import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import type { Config } from './config';
import { temporalTransport } from './temporalTransport';

/**
 * The API's and scripts' one Temporal client. Only `@temporalio/client` is imported outside worker/.
 * The connection is lazy so the API starts (and reports "not ready") while Temporal is still coming up.
 */
export function createTemporalClient(config: Config['temporal']): Client {
  const retries = retriesThatStandDown();
  // gRPC's default 4 MB is less than a long run's history page or the live state of a run with many large outputs.
  const connection = Connection.lazy({
    address: config.address,
    ...temporalTransport(config),
    connectTimeout: '5s',
    channelArgs: { 'grpc.max_receive_message_length': 64 * 1024 * 1024 },
    interceptors: [retries.interceptor],
  });
  standDowns.set(connection, retries.standDown);
  return new Client({ connection, namespace: config.namespace });
}

/** The longest a closing client waits for retries already scheduled. */
const MAX_STAND_DOWN_MS = 2000;

const standDowns = new WeakMap<Connection, () => Promise<void>>();

/**
 * The client's own retries of failed calls (its default policy), with a way to stand them down. The client retries
 * a call from a timer; a retry whose timer fires after the connection was closed throws from that timer, an
 * uncaught exception (it failed a test file after all its tests had passed: "Channel has been shut down"). Standing
 * down, no new retry is scheduled and those already scheduled (up to MAX_STAND_DOWN_MS away) are waited for.
 */
function retriesThatStandDown(): { interceptor: ReturnType<typeof makeGrpcRetryInterceptor>; standDown(): Promise<void> } {
  const defaults = defaultGrpcRetryOptions();
  let standingDown = false;
  let lastRetryAt = 0;
  const interceptor = makeGrpcRetryInterceptor({
    retryableDecider: (attempt, status) => !standingDown && defaults.retryableDecider(attempt, status),
    delayFunction: (attempt, status) => {
      const delayMs = defaults.delayFunction(attempt, status);
      lastRetryAt = Math.max(lastRetryAt, Date.now() + delayMs);
      return delayMs;
    },
  });
  return {
    interceptor,
    async standDown() {
      standingDown = true;
      const waitMs = Math.min(MAX_STAND_DOWN_MS, lastRetryAt + 50 - Date.now());
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    },
  };
}

/** Closes the client's connection once its scheduled retries have run (retriesThatStandDown). */
export async function closeTemporalClient(client: Client): Promise<void> {
  const connection = client.connection as Connection;
  await standDowns.get(connection)?.();
  await connection.close();
}

/**
 * Counts, per connection, the calls running under `withTemporalAbortSignal`. The Temporal client carries a call's
 * abort signal in an AsyncLocalStorage, and on Node 20 a storage that has been used once keeps promise hooks
 * installed for the whole process, which costs ~12% of every request's CPU (docs/benchmarks.md). So the storage is
 * disabled again whenever no such call is running.
 */
const abortableCalls = new WeakMap<Connection, number>();

/** `client.withAbortSignal`, without leaving the client's AsyncLocalStorage enabled afterwards. */
export async function withTemporalAbortSignal<T>(client: Client, signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  const connection = client.connection as Connection;
  abortableCalls.set(connection, (abortableCalls.get(connection) ?? 0) + 1);
  try {
    return await client.withAbortSignal(signal, call);
  } finally {
    const left = (abortableCalls.get(connection) ?? 1) - 1;
    abortableCalls.set(connection, left);
    if (left === 0) connection.callContextStorage.disable();
  }
}
