import type { Connection } from '@temporalio/client';
import { loadConfig } from '../../lib/config';
import { createTemporalClient, withTemporalAbortSignal } from '../../lib/temporal';

/**
 * Abortable Temporal calls against the real dev server: the abort signal reaches the call (also after an await, and
 * while other abortable calls come and go), and once none is running the client's AsyncLocalStorage is disabled
 * again, so its promise hooks stop costing every request of the API (Node 20 keeps them installed otherwise).
 */
const config = loadConfig(process.env);
const client = createTemporalClient(config.temporal);
const connection = client.connection as Connection;
const storageEnabled = () => (connection.callContextStorage as unknown as { enabled?: boolean }).enabled === true;

afterAll(async () => {
  await connection.close();
});

test('calls get their signal, and the storage is off once none is running', async () => {
  const slowSignal = new AbortController().signal;
  const quickSignal = new AbortController().signal;
  // The slow call waits until the quick one has started and ended (a gate, not a sleep: no race under load).
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const slow = withTemporalAbortSignal(client, slowSignal, async () => {
    await gate;
    await client.workflowService.getSystemInfo({});
    return connection.callContextStorage.getStore()?.abortSignal;
  });
  const quick = withTemporalAbortSignal(client, quickSignal, async () => {
    await client.workflowService.getSystemInfo({});
    return connection.callContextStorage.getStore()?.abortSignal;
  });
  expect(await quick).toBe(quickSignal);
  expect(storageEnabled()).toBe(true); // the slow call still needs it
  openGate();
  expect(await slow).toBe(slowSignal);
  expect(storageEnabled()).toBe(false);
});

test('an abort cancels the call in flight, and the storage is off afterwards', async () => {
  // A query to an execution no worker polls for waits until the server gives up (seconds): only the abort ends it
  // sooner.
  const handle = await client.workflow.start('noWorkerForThisType', {
    taskQueue: `abort-test-${Date.now()}`,
    workflowId: `abort-test-${Date.now()}`,
  });
  try {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const failure = await withTemporalAbortSignal(client, controller.signal, () => handle.query('anything')).then(
      () => null,
      (err: Error & { cause?: { code?: number } }) => err,
    );
    expect(failure?.cause?.code).toBe(1); // gRPC CANCELLED
    expect(Date.now() - started).toBeLessThan(3000);
    expect(storageEnabled()).toBe(false);
  } finally {
    await handle.terminate('test done');
  }
});
