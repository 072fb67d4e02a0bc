import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../api/app';
import { closeDeps, createDeps } from '../../../domain/runtime';
import { loadConfigOrExit } from '../../../lib/config';

/**
 * The real API (what api/server.ts starts) in a child process of the load test, so its memory is its own and not
 * the test runner's. It listens on a free loopback port and talks to its parent over IPC:
 * - sends `{ type: 'listening', port }` once it accepts connections;
 * - answers `'memory'` with `{ type: 'memory', heapUsed, rss }` measured right after a full garbage collection (run
 *   with --expose-gc), so the heap figure is the live set and not whatever garbage the last collection left.
 * Disconnecting the IPC channel (the parent ending) shuts it down.
 */
export type ApiProcessMessage = { type: 'listening'; port: number } | { type: 'memory'; heapUsed: number; rss: number };

function send(message: ApiProcessMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const config = loadConfigOrExit('load-test api');
  const deps = createDeps(config);
  const app = createApp(deps);
  const server: Server = app.koa.listen(0, '127.0.0.1', () => send({ type: 'listening', port: (server.address() as AddressInfo).port }));
  server.keepAliveTimeout = 65_000;

  process.on('message', (message) => {
    if (message !== 'memory') return;
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    send({ type: 'memory', heapUsed, rss });
  });
  const shutdown = (): void => {
    server.closeAllConnections();
    server.close(() => {
      void app
        .shutdown()
        .then(() => closeDeps(deps))
        .finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('disconnect', shutdown);
  process.once('SIGTERM', shutdown);
}

void main();
