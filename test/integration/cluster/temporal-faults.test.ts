import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { killClusterProcess, onCluster, restoreCluster, startClusterProcess, type ClusterProcess } from '../../helpers/cluster';
import { createWorkflowFixture, RUN_TEST_CONFIG, startRun, toolNode } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Faults of the real Temporal cluster under load (scripts/cluster; run by `scripts/test --cluster`, skipped
 * elsewhere): ten runs of four nodes are started through the API, and while they run one process of the cluster is
 * SIGKILLed: a history host, a matching host (both left down until the runs are done: the peer takes over their
 * shards and task queues), the frontend and Temporal's PostgreSQL (restarted after a few seconds: nothing works
 * without them). Every run started before the fault completes once: one row each, `completed`, every node
 * completed, and the node with a side effect delivered under one Idempotency-Key per run (an HTTP POST to a local
 * receiver; a retried activity may deliver it again, with the same key), no run lost, none doubled.
 */

const RUNS = 10;
const describeOnCluster = onCluster ? describe : describe.skip;

let api: TestApi;
let tenant: TestTenant;
let receiver: http.Server;
let receiverUrl: string;
/** Idempotency-Key of every POST the receiver got, in order. */
const deliveries: string[] = [];

describeOnCluster('the Temporal cluster loses a process under load', () => {
  let workflowId: string;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        deliveries.push(String(req.headers['idempotency-key']));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    // 127.0.0.3: the one private address the suite's worker lets tools reach (test/setup/globalSetup.ts)
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.3', () => r()));
    receiverUrl = `http://127.0.0.3:${(receiver.address() as AddressInfo).port}/effect`;
    // a short heartbeat timeout: an activity whose report was lost with a host is retried seconds later, not 30 s
    api = await startApi({ ...RUN_TEST_CONFIG, TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.3' });
    tenant = await createTestTenant(api);
    workflowId = await createWorkflowFixture(api, tenant, {
      status: 'active',
      nodes: [
        toolNode('first', 'delay', { ms: 400, value: 1 }),
        toolNode('effect', 'http_request', { url: receiverUrl, method: 'POST', body: { n: 1 } }),
        toolNode('second', 'delay', { ms: 1200, value: 2 }),
        toolNode('last', 'json_transform', { expression: '$', data: 'done' }),
      ],
      edges: [
        { from: 'first', to: 'effect' },
        { from: 'effect', to: 'second' },
        { from: 'second', to: 'last' },
      ],
    });
  });

  afterEach(async () => {
    // a test that failed half-way leaves the next one a whole cluster
    await restoreCluster();
  }, 300_000);

  afterAll(async () => {
    await api?.close();
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
  });

  /** The run rows of `ids`, read from the database: the API is not asked while Temporal is broken. */
  async function rows(ids: string[]): Promise<{ id: string; status: string; node_states: Record<string, { status: string; attempts?: number }> }[]> {
    return api.deps.db('workflow_runs').whereIn('id', ids).select('id', 'status', 'node_states');
  }

  async function runsOfWorkflow(): Promise<number> {
    return (await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).select('id')).length;
  }

  async function untilFinished(ids: string[], timeoutMs: number): Promise<Awaited<ReturnType<typeof rows>>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await rows(ids);
      const open = found.filter((r) => !['completed', 'failed', 'cancelled'].includes(r.status));
      if (found.length === ids.length && !open.length) return found;
      if (Date.now() > deadline) {
        throw new Error(`${open.length} of ${ids.length} runs still open after ${timeoutMs} ms: ${JSON.stringify(open.map((r) => ({ id: r.id, status: r.status, nodes: r.node_states })))}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * Starts RUNS runs, waits until some are past their side effect (the fault lands mid-run for most of them), runs
   * `fault`, and checks that every run completed once with one effect key each.
   */
  async function underLoad(name: ClusterProcess, fault: () => Promise<void>): Promise<void> {
    const before = deliveries.length;
    const runsBefore = await runsOfWorkflow();
    const started = await Promise.all(Array.from({ length: RUNS }, () => startRun(api, tenant.owner.token, workflowId)));
    const ids = started.map((r) => r.id as string);
    const deadline = Date.now() + 30_000;
    while (deliveries.length - before < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await fault();
    const finished = await untilFinished(ids, 150_000);
    const ms = Date.now() - t0;

    // none lost, none doubled: a row per started run (the run id is the execution's id) and no other, each completed
    expect(finished.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(await runsOfWorkflow()).toBe(runsBefore + RUNS);
    for (const run of finished) {
      expect({ id: run.id, status: run.status }).toEqual({ id: run.id, status: 'completed' });
      for (const node of ['first', 'effect', 'second', 'last']) expect({ node, status: run.node_states[node]?.status }).toEqual({ node, status: 'completed' });
    }
    // the side effect: delivered for every run, only under that run's key
    const keys = deliveries.slice(before);
    expect(new Set(keys)).toEqual(new Set(ids.map((id) => `${id}:effect`)));
    const attempts = finished.reduce((sum, r) => sum + Object.values(r.node_states).reduce((s, n) => s + (n.attempts ?? 1), 0), 0);
    // What the fault cost, for the record (a redelivery is the same key again: at-least-once, honoured by the key).
    console.log(`${name} killed: ${RUNS} runs completed ${ms} ms after the fault; ${keys.length - RUNS} effect redeliveries; ${attempts - RUNS * 4} node retries`);
  }

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test('a history host is killed: its peer takes its shards and every run completes once', async () => {
    await underLoad('history1', async () => {
      await killClusterProcess('history1');
    });
    await startClusterProcess('history1');
  }, 300_000);

  test('a matching host is killed: its peer takes its task queues and every run completes once', async () => {
    await underLoad('matching1', async () => {
      await killClusterProcess('matching1');
    });
    await startClusterProcess('matching1');
  }, 300_000);

  test('the frontend is killed and restarted: every run completes once', async () => {
    await underLoad('frontend', async () => {
      await killClusterProcess('frontend');
      await sleep(2000);
      await startClusterProcess('frontend');
    });
  }, 300_000);

  test("Temporal's PostgreSQL is killed and restarted: every run completes once", async () => {
    await underLoad('pg', async () => {
      await killClusterProcess('pg');
      await sleep(2000);
      await startClusterProcess('pg');
    });
  }, 300_000);
});
