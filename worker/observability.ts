import type { Server } from 'node:http';
import type { Worker, WorkerInterceptors } from '@temporalio/worker';
import { installTemporalRuntime } from './logging';
import { boundPort, createWorkerMetrics, sdkMetricsBindAddress, serveWorkerMetrics, type WorkerMetricsDeps } from './metrics';

export interface WorkerObservability {
  interceptors: WorkerInterceptors;
  attachWorker(worker: Worker): Promise<void>;
  close(): Promise<void>;
}

/**
 * Sets up the worker's logs and metrics. Call before the worker connects to Temporal: the SDK's Runtime (its logger,
 * its own Prometheus exporter) can only be installed before the first connection. Metrics problems (a port in use)
 * are logged, never fatal: a worker without metrics is better than no worker; its logs are JSON lines either way.
 */
export function setUpWorkerObservability(deps: Omit<WorkerMetricsDeps, 'sdkMetricsUrl'>): WorkerObservability {
  const { config, logger } = deps;
  let sdkMetricsUrl: string | null = null;
  const bindAddress = sdkMetricsBindAddress(config);
  if (bindAddress) {
    try {
      if (installTemporalRuntime(logger, { prometheusBindAddress: bindAddress })) sdkMetricsUrl = `http://${bindAddress}/metrics`;
    } catch (err) {
      logger.warn({ err, bindAddress }, 'temporal sdk metrics exporter not installed');
    }
  }
  installTemporalRuntime(logger);
  const metrics = createWorkerMetrics({ ...deps, sdkMetricsUrl });
  let server: Server | null = null;

  return {
    interceptors: { activity: [metrics.activityInterceptor] },
    async attachWorker(worker) {
      metrics.attachWorker(worker);
      if (!config.metrics.workerPort) return;
      try {
        server = await serveWorkerMetrics(metrics, config.metrics.workerHost, config.metrics.workerPort);
        logger.info({ host: config.metrics.workerHost, port: boundPort(server) }, 'worker metrics listening');
      } catch (err) {
        logger.warn({ err, port: config.metrics.workerPort }, 'worker metrics endpoint not started');
      }
    },
    async close() {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    },
  };
}
