import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { privateWorker, type PrivateProcess } from '../helpers/faults';
import { RUN_TEST_CONFIG, waitForRun, type RunBody } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Rate limits on destinations (docs/runs.md#rate-limits-on-destinations) against the real stack: calls of parallel
 * runs to one host, executed by two worker processes on a task queue of their own, counted by the destination itself. "At most 10 a second" is checked exactly on the times a
 * local HTTP server received the calls: no window of one second holds more than 10.
 */

const SECOND_US = 1_000_000;

/** A local destination that records when each call arrived (µs, monotonic) and by path. */
interface Destination {
  origin: string;
  /** the calls received so far */
  calls(): Promise<{ at: number; path: string }[]>;
  close(): Promise<void>;
}

/**
 * The destination runs in a process of its own, which does nothing but answer and note the time: in this process,
 * the in-process API and worker keep the event loop busy, and a call would be noted when the loop gets to it, not
 * when it arrived.
 */
const DESTINATION = `
const http = require('node:http');
const calls = [];
const server = http.createServer((req, res) => {
  calls.push({ at: Number(process.hrtime.bigint() / 1000n), path: req.url || '' });
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => { if (m === 'calls') process.send({ calls }); });
process.on('disconnect', () => process.exit(0));
`;

async function destination(): Promise<Destination> {
  const child = spawn(process.execPath, ['-e', DESTINATION], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(key: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        child.off('message', onMessage);
        resolve(message[key] as T);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the destination process exited (${code})`)));
    });
  const port = await next<number>('port');
  return {
    origin: `http://127.0.0.1:${port}`,
    calls: () => {
      const answer = next<{ at: number; path: string }[]>('calls');
      child.send('calls');
      return answer;
    },
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.disconnect();
      await exited;
    },
  };
}

/** The most calls any window [t, t + windowUs) holds. */
function busiestWindow(times: number[], windowUs = SECOND_US): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowUs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

let api: TestApi;
let first: PrivateProcess;
let second: PrivateProcess;
let tenant: TestTenant;
const taskQueue = `rate-limits-${randomUUID().slice(0, 8)}`;
/**
 * Two worker processes on a queue of their own, allowed to reach 127.0.0.1; this process runs the API and the test,
 * whose polling would otherwise delay a worker's calls on their way out. The margin is 150 ms rather than the
 * default 100: this machine runs the suite beside them, and the first calls of a burst of 30 have been measured
 * reaching the destination up to 70 ms after their turn (their worker's event loop busy with the rest of the burst),
 * against a few milliseconds once it settles. What is checked is that no second holds more than the limit when the
 * margin covers that; the default's share of it is in docs/runs.md.
 */
const workerEnv = {
  TEMPORAL_TASK_QUEUE: taskQueue,
  TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1',
  TOOLS_RATE_LIMIT_MARGIN: '150ms',
  RUN_HEARTBEAT_TIMEOUT: RUN_TEST_CONFIG.RUN_HEARTBEAT_TIMEOUT,
};

beforeAll(async () => {
  api = await startApi({ ...RUN_TEST_CONFIG, ...workerEnv });
  const log = (name: string) => path.join(process.env.LOOM_TEST_DIR!, `rate-limits-${name}-${taskQueue}.log`);
  first = privateWorker(workerEnv, log('worker-1'));
  second = privateWorker(workerEnv, log('worker-2'));
  await Promise.all([first.start(), second.start()]);
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.stop('SIGTERM'), second?.stop('SIGTERM')]);
  await api?.close();
});

beforeEach(async () => {
  tenant = await createTestTenant(api);
});

const token = (): string => tenant.owner.token;

async function setLimits(rateLimits: unknown[]): Promise<void> {
  const res = await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: token(), body: { integration: { rateLimits } } });
  expect(res.status).toBe(200);
}

async function createWorkflow(body: Record<string, unknown>): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', { token: token(), body });
  if (res.status !== 201) throw new Error(`creating the workflow answered ${res.status}: ${res.text}`);
  return res.body.id as string;
}

/** `count` http_request nodes, each calling `url` + its id, all at once. */
const callingNodes = (url: string, count: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: count }, (_, i) => ({ id: `call_${i}`, type: 'tool', config: { tool: 'http_request', config: { url: `${url}/${i}`, method: 'GET' }, ...extra } }));

/**
 * Starts `runs` runs of a workflow at once and follows them to their end, polling their views: what the node states
 * showed while they waited, and the runs as they ended.
 */
async function runAtOnce(workflowId: string, runs: number, parameters: Record<string, unknown>[] = []): Promise<{ ended: RunBody[]; waits: { node: string; waiting_for: unknown; waiting_until: string }[] }> {
  const started = await Promise.all(
    Array.from({ length: runs }, async (_, i) => {
      const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: token(), body: { parameters: parameters[i] ?? {} } });
      if (res.status !== 201) throw new Error(`start answered ${res.status}: ${res.text}`);
      return res.body.id as string;
    }),
  );
  const waits: { node: string; waiting_for: unknown; waiting_until: string }[] = [];
  const ended = await Promise.all(
    started.map((runId) =>
      waitForRun(api, token(), workflowId, runId, (run) => {
        for (const [node, state] of Object.entries((run.node_states ?? {}) as Record<string, { waiting_for?: unknown; waiting_until?: string }>)) {
          if (state.waiting_for) waits.push({ node, waiting_for: state.waiting_for, waiting_until: state.waiting_until! });
        }
        return ['completed', 'failed', 'cancelled'].includes(run.status);
      }, 120_000),
    ),
  );
  return { ended, waits };
}

/** Which workers' identities started the runs' activities (Temporal history). */
async function activityWorkers(runIds: string[]): Promise<Set<string>> {
  const identities = new Set<string>();
  for (const runId of runIds) {
    const history = await api.deps.temporal.workflow.getHandle(runId).fetchHistory();
    for (const event of history.events ?? []) {
      const identity = event.activityTaskStartedEventAttributes?.identity;
      if (identity) identities.add(identity);
    }
  }
  return identities;
}

/**
 * Has both workers make calls before the measured ones: the first call a process makes takes longer to reach its
 * destination (connection set-up, code loaded on first use) than the margin covers (docs/runs.md).
 */
async function warmUp(): Promise<void> {
  const server = await destination();
  try {
    const workflowId = await createWorkflow({ name: 'warm-up', dag: { nodes: callingNodes(`${server.origin}/warm`, 20) } });
    const { ended } = await runAtOnce(workflowId, 2);
    expect(ended.map((r) => r.status)).toEqual(['completed', 'completed']);
  } finally {
    await server.close();
  }
}

test('without a limit, three runs of ten calls reach the destination all in the same second', async () => {
  await warmUp();
  const server = await destination();
  try {
    const workflowId = await createWorkflow({ name: 'unlimited', dag: { nodes: callingNodes(`${server.origin}/free`, 10) } });
    const { ended } = await runAtOnce(workflowId, 3);
    expect(ended.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    const calls = await server.calls();
    expect(calls).toHaveLength(30);
    expect(busiestWindow(calls.map((c) => c.at))).toBeGreaterThan(10);
  } finally {
    await server.close();
  }
});

test("an organization's limit on a host: 30 calls of 3 runs on two workers, at most 10 in any second, waiting shown, none failed", async () => {
  const server = await destination();
  try {
    await setLimits([{ host: '127.0.0.1', requests: 10, per: '1s' }]);
    const workflowId = await createWorkflow({ name: 'limited', dag: { nodes: callingNodes(`${server.origin}/limited`, 10) } });
    const { ended, waits } = await runAtOnce(workflowId, 3);

    expect(ended.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    for (const run of ended) {
      for (const state of Object.values(run.node_states as Record<string, { status: string; attempts: number }>)) {
        // waiting spent no attempt, and the node shows no wait once its call was made
        expect(state).toMatchObject({ status: 'completed', attempts: 1 });
        expect(state).not.toHaveProperty('waiting_for');
      }
    }
    const calls = await server.calls();
    const times = calls.map((c) => c.at);
    expect(calls).toHaveLength(30);
    expect(busiestWindow(times)).toBeLessThanOrEqual(10);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toEqual({ node: expect.stringMatching(/^call_\d$/), waiting_for: { reason: 'rate_limit', limits: ['host:127.0.0.1'] }, waiting_until: expect.any(String) });
    // both worker processes made calls
    expect((await activityWorkers(ended.map((r) => r.id))).size).toBeGreaterThanOrEqual(2);
  } finally {
    await server.close();
  }
}, 120_000);

test("a node's keyed limit is kept with the organization's on the host: a call takes a turn in both", async () => {
  const server = await destination();
  try {
    await setLimits([{ host: '127.0.0.1', requests: 10, per: '1s' }]);
    const keyed = callingNodes(`${server.origin}/keyed`, 4, { rate_limit: { key: 'partner', requests: 2, per: '1s' } });
    const workflowId = await createWorkflow({ name: 'keyed', dag: { nodes: [...keyed, ...callingNodes(`${server.origin}/free`, 6).map((n) => ({ ...n, id: `other_${n.id}` }))] } });
    const { ended, waits } = await runAtOnce(workflowId, 2);
    expect(ended.map((r) => r.status)).toEqual(['completed', 'completed']);
    const calls = await server.calls();
    const keyedTimes = calls.filter((c) => c.path.startsWith('/keyed')).map((c) => c.at);
    expect(keyedTimes).toHaveLength(8);
    expect(busiestWindow(keyedTimes)).toBeLessThanOrEqual(2);
    expect(busiestWindow(calls.map((c) => c.at))).toBeLessThanOrEqual(10);
    expect(waits.map((w) => w.waiting_for)).toContainEqual({ reason: 'rate_limit', limits: ['host:127.0.0.1', 'key:partner'] });
  } finally {
    await server.close();
  }
}, 120_000);

describe('declarations are checked when saved', () => {
  test('organization limits: 400 naming the field, admins only', async () => {
    const put = (rateLimits: unknown, as = token()) =>
      api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: as, body: { integration: { rateLimits } } });
    const bad = await put([{ host: 'https://api.partner.example/v1', requests: 0, per: '10ms' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'body.integration.rateLimits[0].host',
      'body.integration.rateLimits[0].per',
      'body.integration.rateLimits[0].requests',
    ]);
    const twice = await put([{ host: 'API.partner.example', requests: 1, per: '1s' }, { host: 'api.partner.example', requests: 2, per: '1s' }]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([{ path: 'body.integration.rateLimits[1].host', problem: expect.stringContaining('one limit per host') }]);

    const member = await addTestMember(api, tenant, 'member');
    expect((await put([{ host: 'a.example', requests: 1, per: '1s' }], member.token)).status).toBe(403);

    const saved = await put([{ host: 'API.Partner.example:8443', requests: 10, per: '1s' }]);
    expect(saved.status).toBe(200);
    expect(saved.body.integration.rateLimits).toEqual([{ host: 'api.partner.example:8443', requests: 10, per: '1s' }]);
    // read-modify-write: the document a read answers is accepted back as it is
    const read = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: token() });
    expect((await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: token(), body: { integration: read.body.integration } })).status).toBe(200);
  });

  test("a tool node's rate_limit: 422 naming the field", async () => {
    const res = await api.request('POST', '/api/v1/workflows', {
      token: token(),
      body: { name: 'bad limit', dag: { nodes: [{ id: 'call', type: 'tool', config: { tool: 'http_request', config: { url: 'https://a.example' }, rate_limit: { requests: 20_000, per: '2h' } } }] } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('WORKFLOW_INVALID');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['dag.nodes.call.config.rate_limit.per', 'dag.nodes.call.config.rate_limit.requests']);
  });
});

describe('the example of docs/runs.md#rate-limits-on-destinations', () => {
  const page = readFileSync(path.join(__dirname, '..', '..', 'docs', 'runs.md'), 'utf8');
  const block = (name: string): string => {
    const found = new RegExp(`<!-- example:${name} -->\\n\`\`\`json\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(page);
    if (!found) throw new Error(`docs/runs.md has no example:${name} block`);
    return found[1]!;
  };

  test('runs as printed, against a local stand-in for the partner', async () => {
    const server = await destination();
    try {
      // the partner's hosts are this test's server
      const local = (text: string) => text.replaceAll('https://api.partner.example', `${server.origin}/api`).replaceAll('https://hooks.partner.example', `${server.origin}/hooks`);
      const settings = JSON.parse(block('rate-limits-settings').replaceAll('"api.partner.example"', '"127.0.0.1"'));
      const res = await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: token(), body: settings });
      expect(res.status).toBe(200);
      const workflowId = await createWorkflow(JSON.parse(local(block('rate-limits-workflow'))));
      const orders = (run: number) => ({ orders: Array.from({ length: 10 }, (_, i) => `o-${run}-${i}`) });
      const { ended } = await runAtOnce(workflowId, 3, [orders(0), orders(1), orders(2)]);
      expect(ended.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
      const calls = await server.calls();
      const orderCalls = calls.filter((c) => c.path.startsWith('/api/orders/o-'));
      const hooks = calls.filter((c) => c.path === '/hooks/synced');
      expect(orderCalls).toHaveLength(30);
      expect(hooks).toHaveLength(3);
      expect(busiestWindow(calls.map((c) => c.at))).toBeLessThanOrEqual(10);
      expect(busiestWindow(hooks.map((c) => c.at))).toBe(1);
    } finally {
      await server.close();
    }
  }, 120_000);
});

test('a worker process killed while calls wait for their turns: the runs complete on the other, still at most 10 in any second', async () => {
  const server = await destination();
  try {
    await setLimits([{ host: '127.0.0.1', requests: 10, per: '1s' }]);
    const workflowId = await createWorkflow({ name: 'killed', dag: { nodes: callingNodes(`${server.origin}/killed`, 10) } });
    const following = runAtOnce(workflowId, 3);
    // a second into ~3 s of turns: some calls made, some waiting in place on either worker, some waiting in their runs
    const deadline = Date.now() + 30_000;
    while ((await server.calls()).length < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await second.stop('SIGKILL');
    const { ended } = await following;
    await second.start();
    expect(ended.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    // a call killed after it reached the destination is made again (at least once): every node's call arrived
    const calls = await server.calls();
    expect(new Set(calls.map((c) => c.path)).size).toBe(10);
    expect(calls.length).toBeGreaterThanOrEqual(30);
    expect(busiestWindow(calls.map((c) => c.at))).toBeLessThanOrEqual(10);
  } finally {
    await server.close();
  }
}, 150_000);
