import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from '@temporalio/worker';
import { createLogger } from '../../lib/logger';
import { createWorker } from '../../worker/createWorker';
import { createWorkflowFixture, RUN_TEST_CONFIG, runToEnd, toolNode } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Circuit breakers per destination (docs/runs.md#circuit-breakers): a failing host opens the breaker of that host
 * only; a node's `circuit_breaker.key` groups destinations under one breaker; a call the outbound policy refuses
 * never reached anyone and does not count. A worker of its own on a queue of its own, allowed to reach 127.0.0.1.
 */

let api: TestApi;
let worker: Worker;
let workerDone: Promise<void>;
let tenant: TestTenant;
const servers: http.Server[] = [];
let bad: string;
let good: string;
const taskQueue = `breakers-${randomUUID().slice(0, 8)}`;

async function serve(status: number): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/call`;
}

beforeAll(async () => {
  bad = await serve(500);
  good = await serve(200);
  api = await startApi({ ...RUN_TEST_CONFIG, TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1', TEMPORAL_TASK_QUEUE: taskQueue });
  worker = await createWorker({ deps: { ...api.deps, config: api.config, logger: createLogger('silent', 'breakers-test-worker') }, workflowBundlePath: api.config.temporal.workflowBundlePath });
  workerDone = worker.run();
  tenant = await createTestTenant(api);
});

afterAll(async () => {
  worker?.shutdown();
  await workerDone;
  await api?.close();
  for (const server of servers) server.close();
});

const call = (url: string, breaker: Record<string, unknown> = {}) =>
  createWorkflowFixture(api, tenant, {
    nodes: [toolNode('call', 'http_request', { url, method: 'GET' })],
    errorHandling: { default_strategy: 'circuit_breaker', circuit_breaker: { threshold: 1, timeout: 600_000, ...breaker }, retry_config: { max_attempts: 1 } },
  });

const breakers = async (): Promise<{ tool: string; scope: string; state: string; consecutive_failures: number }[]> =>
  (await api.request('GET', '/api/v1/circuit-breakers', { token: tenant.owner.token })).body.data;

test('a failing host opens its own breaker; the same tool still reaches other hosts', async () => {
  const token = tenant.owner.token;
  const toBad = await call(bad);
  const first = await runToEnd(api, token, toBad);
  expect(first.status).toBe('failed');
  expect(first.node_states.call.error.code).not.toBe('CIRCUIT_OPEN');
  const badHost = new URL(bad).host;
  expect(await breakers()).toEqual([expect.objectContaining({ tool: 'http_request', scope: badHost, state: 'open', consecutive_failures: 1 })]);

  // before: one breaker per tool, so this call was refused CIRCUIT_OPEN
  const toGood = await runToEnd(api, token, await call(good));
  expect(toGood.status).toBe('completed');

  const again = await runToEnd(api, token, toBad);
  expect(again.node_states.call.error).toMatchObject({ code: 'CIRCUIT_OPEN', message: expect.stringContaining(badHost) });

  const reset = await api.request('POST', `/api/v1/circuit-breakers/http_request/reset?scope=${encodeURIComponent(badHost)}`, { token });
  expect(reset.status).toBe(200);
  expect(reset.body).toMatchObject({ scope: badHost, state: 'closed' });
});

test('a key groups destinations under one breaker', async () => {
  const token = tenant.owner.token;
  await runToEnd(api, token, await call(bad, { key: 'partner' }));
  const shared = await runToEnd(api, token, await call(good, { key: 'partner' }));
  expect(shared.node_states.call.error).toMatchObject({ code: 'CIRCUIT_OPEN', message: expect.stringContaining('key:partner') });
  expect((await breakers()).find((b) => b.scope === 'key:partner')).toMatchObject({ state: 'open' });
});

test('a call the outbound policy refuses does not count against the destination', async () => {
  const refused = await runToEnd(api, tenant.owner.token, await call('http://169.254.169.254/latest/meta-data'));
  expect(refused.node_states.call.error.code).toBe('URL_REFUSED');
  const metadata = (await breakers()).find((b) => b.scope === '169.254.169.254');
  expect(metadata === undefined || (metadata.state === 'closed' && metadata.consecutive_failures === 0)).toBe(true);
});
