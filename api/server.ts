import type { Server } from 'node:http';
import { loadConfigOrExit } from '../lib/config';
import { createApp } from './app';
import { closeDeps, createDeps } from './runtime';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const deps = createDeps(config);
  const app = createApp(deps);
  const { koa } = app;
  const server: Server = koa.listen(config.http.port, config.http.host, () => {
    deps.logger.info({ port: config.http.port, host: config.http.host }, 'api listening');
  });
  server.keepAliveTimeout = 65_000;

  const shutdown = (signal: string): void => {
    deps.logger.info({ signal }, 'api shutting down');
    server.close(() => {
      void app
        .shutdown()
        .catch((err: unknown) => deps.logger.error({ err }, 'shutdown step failed'))
        .then(() => closeDeps(deps))
        .then(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

void main();
