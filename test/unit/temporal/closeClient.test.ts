import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { closeTemporalClient, createTemporalClient } from '../../../lib/temporal';
import { loadConfig } from '../../../lib/config';

/**
 * The Temporal client retries a failed call from a timer. A connection closed while such a retry waited made the
 * timer throw "Channel has been shut down", an uncaught exception (it failed a test file after its tests had passed).
 * closeTemporalClient stands the retries down first. A local HTTP/2 server answers every gRPC call UNAVAILABLE.
 */
let server: http2.Http2Server;
let calls = 0;

beforeAll(async () => {
  server = http2.createServer();
  server.on('stream', (stream) => {
    calls += 1;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '14', 'grpc-message': 'unavailable' }, { endStream: true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

test('a client closed while a call waits for its retry closes cleanly, the call failing', async () => {
  const uncaught: Error[] = [];
  const onUncaught = (err: Error) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  try {
    const config = loadConfig({ SERVICE_JWT_SECRET: 'x'.repeat(32), TEMPORAL_ADDRESS: `127.0.0.1:${(server.address() as AddressInfo).port}` });
    const client = createTemporalClient(config.temporal);
    const call = client.workflowService.getSystemInfo({}).then(
      () => 'answered',
      (err: Error) => err.message,
    );
    while (calls < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    // The first attempt failed: its retry is waiting on a timer (100 ms or so) while the client closes.
    await closeTemporalClient(client);
    expect(await call).toMatch(/unavailable/i);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past any retry the old close left behind
    expect(uncaught).toEqual([]);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
