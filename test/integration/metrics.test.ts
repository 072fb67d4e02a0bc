import { randomUUID } from 'node:crypto';
import { createToolCatalogue } from '../../domain/tools/catalogue';
import type { Server } from 'node:http';
import type { Context as ActivityContext } from '@temporalio/activity';
import type { Worker } from '@temporalio/worker';
import { createLogger } from '../../lib/logger';
import { createWorker } from '../../worker/createWorker';
import { boundPort, createWorkerMetrics, serveWorkerMetrics, type WorkerMetrics } from '../../worker/metrics';
import { startApi, type TestApi } from '../helpers/stack';

let api: TestApi;

/** The value of the sample `name` whose labels include all of `labels` (label order does not matter), or null. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const [labelPart, value] = [line.slice(name.length + 1, line.lastIndexOf('}')), line.slice(line.lastIndexOf('}') + 2)];
    if (Object.entries(labels).every(([k, v]) => labelPart.split(',').includes(`${k}="${v}"`))) return Number(value);
  }
  return null;
}

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.close();
});

describe('API /metrics', () => {
  it('exposes request latency by method, route template and status, with no ids in labels', async () => {
    await api.request('GET', '/healthz');
    const missingId = randomUUID();
    await api.request('GET', `/api/v1/organizations/${missingId}`);
    await api.request('GET', `/no/such/path/${missingId}`);

    const res = await api.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toContain('# TYPE loom_http_request_duration_seconds histogram');
    const count = 'loom_http_request_duration_seconds_count';
    expect(sample(res.text, count, { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
    expect(sample(res.text, count, { method: 'GET', route: '/api/v1/organizations/:id', status: '401' })).toBe(1);
    expect(sample(res.text, count, { method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    expect(res.text).not.toContain(missingId);
    expect(res.text).toContain('loom_api_process_cpu_user_seconds_total');
  });

  it('exposes runs by status and the task queue backlog', async () => {
    const res = await api.request('GET', '/metrics');
    const queue = api.config.temporal.taskQueue;
    expect(sample(res.text, 'loom_task_queue_backlog', { type: 'workflow', queue })).toBeGreaterThanOrEqual(0);
    expect(sample(res.text, 'loom_task_queue_backlog', { type: 'activity', queue })).toBeGreaterThanOrEqual(0);
    if (await api.deps.db.schema.hasTable('workflow_runs')) {
      for (const status of ['pending', 'running', 'completed', 'failed', 'cancelled']) {
        expect(sample(res.text, 'loom_runs', { status })).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('worker metrics', () => {
  const taskQueue = `metrics-${randomUUID()}`;
  const logger = createLogger('silent', 'worker-test');
  let metrics: WorkerMetrics;
  let worker: Worker;
  let server: Server;

  beforeAll(async () => {
    const config = { ...api.config, temporal: { ...api.config.temporal, taskQueue } };
    metrics = createWorkerMetrics({ config, db: api.deps.db, logger });
    worker = await createWorker({
      deps: { ...api.deps, config, logger, tools: createToolCatalogue({ db: api.deps.db, config, logger }) },
      workflowBundlePath: config.temporal.workflowBundlePath,
      overrides: { interceptors: { activity: [metrics.activityInterceptor] } },
    });
    metrics.attachWorker(worker);
    server = await serveWorkerMetrics(metrics, '127.0.0.1', 0);
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('serves activity durations by type and outcome, worker state, runs by status and queue backlog', async () => {
    const text = await worker.runUntil(async () => {
      const id = randomUUID();
      await api.deps.temporal.workflow.execute('systemCheckWorkflow', {
        taskQueue,
        workflowId: `metrics-check-${id}`,
        args: [{ id, note: 'metrics' }],
        workflowExecutionTimeout: '60s',
      });
      const res = await fetch(`http://127.0.0.1:${boundPort(server)}/metrics`);
      expect(res.status).toBe(200);
      return res.text();
    });

    // On failure, show the page: these numbers come from a live worker and Temporal.
    const failWithPage = (err: unknown): never => {
      throw new Error(`${(err as Error).message}\n--- metrics page ---\n${text.split('\n').filter((l) => l.startsWith('loom_')).join('\n')}`);
    };
    try {
      expectWorkerPage(text);
    } catch (err) {
      failWithPage(err);
    }
  });

  function expectWorkerPage(text: string): void {
    const activityCount = { activity_type: 'recordSystemCheck', outcome: 'completed', task_queue: taskQueue };
    expect(sample(text, 'loom_activity_duration_seconds_count', activityCount)).toBe(1);
    expect(sample(text, 'loom_worker_workflow_tasks_in_flight', {})).not.toBeNull();
    expect(sample(text, 'loom_worker_cached_workflows', {})).not.toBeNull();
    expect(sample(text, 'loom_task_queue_backlog', { type: 'workflow' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'loom_task_queue_backlog', { type: 'activity' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'loom_runs', { status: 'completed' })).toBeGreaterThanOrEqual(0);
  }

  it('records failed and cancelled activities as such', async () => {
    const controller = new AbortController();
    const fakeContext = {
      info: { activityType: 'failingTool' },
      cancellationSignal: controller.signal,
    } as unknown as ActivityContext;
    const inbound = metrics.activityInterceptor(fakeContext).inbound!;
    const input = { args: [], headers: {} };
    await expect(inbound.execute!(input, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    controller.abort();
    await expect(inbound.execute!(input, async () => Promise.reject(new Error('stopped')))).rejects.toThrow('stopped');

    const text = await metrics.render();
    const count = 'loom_activity_duration_seconds_count';
    expect(sample(text, count, { activity_type: 'failingTool', outcome: 'failed' })).toBe(1);
    expect(sample(text, count, { activity_type: 'failingTool', outcome: 'cancelled' })).toBe(1);
  });

  it('answers 404 for other paths', async () => {
    const res = await fetch(`http://127.0.0.1:${boundPort(server)}/other`);
    expect(res.status).toBe(404);
  });
});
