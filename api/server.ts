import type { Server } from 'node:http';
import { loadConfigOrExit, type Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { useScratchDirForTempFiles } from '../lib/vectors/scratch';
import { createApp, type App } from './app';
import { closeDeps, createDeps } from '../domain/runtime';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  // Once, before any LanceDB work: index builds leave temporary folders in $TMPDIR (lib/vectors/scratch.ts).
  useScratchDirForTempFiles(config.content.vectorScratchDir);
  const deps = createDeps(config);
  const app = createApp(deps);
  const { koa } = app;
  const server: Server = koa.listen(config.http.port, config.http.host, () => {
    deps.logger.info({ port: config.http.port, host: config.http.host }, 'api listening');
  });
  server.keepAliveTimeout = 65_000;
  const metricsServer = listenForMetrics(app, config, deps.logger);

  const shutdown = (signal: string): void => {
    deps.logger.info({ signal }, 'api shutting down');
    metricsServer?.close();
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

/**
 * /metrics on its own listener when SERVICE_METRICS_PORT is set. A port in use is logged and the API runs on without
 * metrics, as the worker's endpoint does (docs/operating.md).
 */
function listenForMetrics(app: App, config: Config, logger: Logger): Server | null {
  const where = config.metrics.api;
  if (!app.metricsListener || !where) {
    if (config.env === 'production' && !config.metrics.apiToken) {
      logger.warn('/metrics is served on the public port without a token: set SERVICE_METRICS_PORT or SERVICE_METRICS_TOKEN');
    }
    return null;
  }
  const server = app.metricsListener.listen(where.port, where.host, () => {
    logger.info({ port: where.port, host: where.host }, 'api metrics listening');
  });
  server.on('error', (err) => logger.warn({ err, port: where.port }, 'api metrics listener failed; running without it'));
  return server;
}

void main();
