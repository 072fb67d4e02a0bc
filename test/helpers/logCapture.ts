import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createApp } from '../../api/app';
import { closeDeps, createDeps } from '../../domain/runtime';
import { loadConfig } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { requestOver, TEST_RATE_LIMIT_OVERRIDES, type TestApi } from './stack';

/** Everything a pino logger writes, as raw text (for "this secret never reached the logs" checks). */
export class LogCapture extends Writable {
  readonly chunks: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString('utf8'));
    done();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

/** Like startApi, but the API's logger writes, at the most verbose level, into a capture. */
export async function startApiWithLogCapture(overrides: Record<string, string> = {}): Promise<{ api: TestApi; logs: LogCapture }> {
  const logs = new LogCapture();
  const config = loadConfig({ ...process.env, ...TEST_RATE_LIMIT_OVERRIDES, ...overrides, LOG_LEVEL: 'trace' });
  const deps = { ...createDeps(config), logger: createLogger('trace', 'api', logs) };
  const app = createApp(deps);
  const server: Server = await new Promise((resolve) => {
    const s = app.koa.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = requestOver(baseUrl);
  return {
    logs,
    api: {
      baseUrl,
      deps,
      app,
      config,
      request,
      async close() {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
        await closeDeps(deps);
      },
    },
  };
}
