import { randomUUID } from 'node:crypto';
import { uploadContent } from '../helpers/content';
import { createWorkflowFixture, toolNode } from '../helpers/runs';
import { startApi, type TestApi, type TestResponse } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { transactionViolations } from '../helpers/transactionGuard';

/**
 * One organization's write burst cannot take the database pool from another (issue 40, finding 5). For each write
 * route, organization A sends 50 requests at once while organization B keeps reading its workflow list. With the
 * default pool (DATABASE_POOL_MAX 10) and before the fix, 50 parallel invitations held every connection (each
 * waited for the organization's row lock while the holder needed a second connection and SMTP): A got 503s after
 * the pool's 5 s acquire timeout, and so did B's reads. Now each write holds at most one connection, A runs at most
 * SERVICE_WRITE_CONCURRENCY_PER_ORGANIZATION writes at once and queues the rest: B's reads all answer 200, and they
 * answer while A's burst is still in flight. No absolute timing is asserted; the latency ratio to B's idle reads in
 * the same test is logged.
 */

const BURST = 50;

let api: TestApi;
let a: TestTenant;
let b: TestTenant;
let workflowOfA: string;

beforeAll(async () => {
  api = await startApi({ DATABASE_POOL_MAX: '10', RUN_START_RATE_LIMIT: 'off' });
  a = await createTestTenant(api, 'enterprise');
  b = await createTestTenant(api);
  workflowOfA = await createWorkflowFixture(api, a, { name: 'burst target', status: 'active', nodes: [toolNode('only', 'json_transform', { expression: '1', data: null })] });
  await createWorkflowFixture(api, b, { name: 'b reads this', status: 'active', nodes: [toolNode('only', 'json_transform', { expression: '1', data: null })] });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

const dag = (i: number) => ({ nodes: [{ id: 'only', type: 'tool', config: { tool: 'json_transform', config: { expression: String(i), data: null } } }] });

/** One write of A, the i-th of the burst. */
type Write = (i: number) => Promise<TestResponse>;

const writes: Array<[string, Write]> = [
  ['invite a member', (i) => api.request('POST', `/api/v1/organizations/${a.organizationId}/invitations`, { token: a.owner.token, body: { email: `burst-${i}-${randomUUID()}@example.com`, role: 'member' } })],
  ['create a workflow', (i) => api.request('POST', '/api/v1/workflows', { token: a.owner.token, body: { name: `burst ${i} ${randomUUID().slice(0, 8)}`, dag: dag(i) } })],
  ['update a workflow', (i) => api.request('PUT', `/api/v1/workflows/${workflowOfA}`, { token: a.owner.token, body: { dag: dag(i) } })],
  ['put a secret', (i) => api.request('PUT', `/api/v1/secrets/BURST_${i}`, { token: a.owner.token, body: { value: `v-${randomUUID()}` } })],
  ['upload content', (i) => uploadContent(api, a.owner.token, { bytes: Buffer.from(`burst ${i}`), filename: `b${i}.txt`, type: 'text/plain' })],
  ['update settings', (i) => api.request('PUT', `/api/v1/organizations/${a.organizationId}/settings`, { token: a.owner.token, body: { general: { timezone: i % 2 ? 'Europe/Paris' : 'UTC' } } })],
  ['create an API key', (i) => api.request('POST', `/api/v1/organizations/${a.organizationId}/api-keys`, { token: a.owner.token, body: { name: `burst-${i}`, role: 'member' } })],
  ['start a run', () => api.request('POST', `/api/v1/workflows/${workflowOfA}/runs`, { token: a.owner.token, body: { parameters: {} } })],
];

async function readOfB(): Promise<{ status: number; ms: number; at: number }> {
  const started = performance.now();
  const res = await api.request('GET', '/api/v1/workflows', { token: b.owner.token });
  return { status: res.status, ms: performance.now() - started, at: performance.now() };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

describe('a write burst of one organization does not take the pool from another', () => {
  test.each(writes)('50 parallel requests: %s', async (_name, write) => {
    const idle: number[] = [];
    for (let i = 0; i < 5; i++) idle.push((await readOfB()).ms);

    let burstEnded = 0;
    const burst = Promise.all(Array.from({ length: BURST }, (_, i) => write(i))).then((answers) => {
      burstEnded = performance.now();
      return answers;
    });
    const reads: Array<{ status: number; ms: number; at: number }> = [];
    // B keeps reading, one request after another, while A's burst runs (and at least three times).
    while (burstEnded === 0 || reads.length < 3) reads.push(await readOfB());
    const answers = await burst;

    // B first: its reads all answered, and while the burst was still in flight, not after it.
    expect(reads.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(reads[0]!.at).toBeLessThan(burstEnded);
    const statusesOfA = answers.map((r) => r.status);
    expect(statusesOfA.filter((s) => s >= 500)).toEqual([]);
    expect(statusesOfA.filter((s) => s >= 200 && s < 300).length).toBeGreaterThan(0);
    for (const refused of answers.filter((r) => r.status >= 400)) {
      // Only A's own share refuses it: 429 with Retry-After (the write gate or a budget of A's).
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    console.log(
      `${_name}: A ${statusesOfA.filter((s) => s < 300).length}/${BURST} 2xx; B ${reads.length} reads, median ${median(reads.map((r) => r.ms)).toFixed(0)} ms ` +
        `(idle ${median(idle).toFixed(0)} ms), max ${Math.max(...reads.map((r) => r.ms)).toFixed(0)} ms`,
    );
  }, 120_000);
});

describe('the transaction guard of the test stack (lib/db/transactionGuard.ts) catches the mistakes it is for', () => {
  test('a query through db, a nested transaction and mail inside an open transaction throw; trx queries and work after commit pass', async () => {
    const db = api.deps.db;
    await expect(db.transaction(async () => db('users').first('id'))).rejects.toThrow(/second pool connection/);
    await expect(db.transaction(async () => db.transaction(async (inner) => inner('users').first('id')))).rejects.toThrow(/nested db\.transaction/);
    await expect(db.transaction(async () => api.deps.mailer.send({ to: 'x@example.com', subject: 's', text: 't' }))).rejects.toThrow(/mailer\.send inside an open transaction/);
    await expect(db.transaction(async () => api.deps.temporal.workflow.start('nope', { taskQueue: 'q', workflowId: randomUUID() }))).rejects.toThrow(/temporal\.workflow\.start/);
    const row = await db.transaction(async (trx) => trx('users').first('id'));
    expect(await db('users').first('id')).toEqual(row);
    transactionViolations.length = 0;
  });
});
