import { Client, Connection } from '@temporalio/client';
import type { Config } from './config';
import { temporalTransport } from './temporalTransport';

/**
 * The API's and scripts' one Temporal client. Only `@temporalio/client` is imported outside worker/.
 * The connection is lazy so the API starts (and reports "not ready") while Temporal is still coming up.
 */
export function createTemporalClient(config: Config['temporal']): Client {
  // gRPC's default 4 MB is less than a long run's history page or the live state of a run with many large outputs.
  const connection = Connection.lazy({
    address: config.address,
    ...temporalTransport(config),
    connectTimeout: '5s',
    channelArgs: { 'grpc.max_receive_message_length': 64 * 1024 * 1024 },
  });
  return new Client({ connection, namespace: config.namespace });
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
