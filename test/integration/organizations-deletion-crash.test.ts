import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { organizationPrefix } from '../../lib/storage';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant } from '../helpers/tenants';
import { REPO_ROOT, waitForLine } from '../setup/state';

/**
 * The deletion workflow survives a worker killed (SIGKILL) in the middle: a second worker picks it up and it
 * finishes with nothing of the organization left. Uses its own task queue and worker processes so the run's shared
 * worker is never touched.
 */
let api: TestApi;
const queue = `${process.env.TEMPORAL_TASK_QUEUE}-org-crash`;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

async function startWorker(tag: string): Promise<ChildProcess> {
  const logPath = path.join(process.env.LOOM_TEST_DIR ?? '/tmp', `org-crash-worker-${tag}-${randomUUID().slice(0, 6)}.log`);
  const out = openSync(logPath, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, TEMPORAL_TASK_QUEUE: queue, WORKER_METRICS_PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', out, out],
  });
  closeSync(out); // the child has its own copy
  await waitForLine(logPath, /worker started/, 90_000, () => child.exitCode);
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

test('a worker killed mid-deletion: another worker resumes and the deletion completes', async () => {
  const t = await createTestTenant(api);
  const id = t.organizationId;
  const bucket = api.config.minio.bucket;
  const keys = Array.from({ length: 400 }, (_, i) => `${organizationPrefix(id)}bulk/${i}.txt`);
  for (let i = 0; i < keys.length; i += 50) {
    await Promise.all(keys.slice(i, i + 50).map((k) => api.deps.storage.putObject(bucket, k, Buffer.from(k))));
  }
  await api.deps.db('billing_subscriptions').insert({ organization_id: id, provider: 'local', external_id: `local_${randomUUID()}`, plan: 'pro' });

  let first: ChildProcess | null = await startWorker('a');
  let second: ChildProcess | null = null;
  try {
    const handle = await api.deps.temporal.workflow.start('organizationDeletionWorkflow', {
      taskQueue: queue,
      workflowId: `org-delete-${id}`,
      args: [{ organizationId: id, requestedBy: t.owner.userId, requesterEmail: t.owner.email, organizationName: 'Crash', exportData: false }],
    });
    // Kill as soon as the first step has visibly run.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const org = await api.deps.db('organizations').where({ id }).first('status');
      if (!org || org.status === 'deleting') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await kill(first);
    first = null;
    const midway = await api.deps.db('organizations').where({ id }).first('status');
    expect(midway?.status ?? 'gone').toBe('deleting'); // killed before the rows were deleted
    expect((await handle.describe()).status.name).toBe('RUNNING');

    second = await startWorker('b');
    const result = await handle.result();
    expect(result.step).toBe('done');
    expect(await api.deps.db('organizations').where({ id }).first()).toBeUndefined();
    expect(await api.deps.db('billing_subscriptions').where({ organization_id: id })).toHaveLength(0);
    const left: string[] = [];
    for await (const item of api.deps.storage.listObjectsV2(bucket, organizationPrefix(id), true)) left.push(item.name!);
    expect(left).toEqual([]);
  } finally {
    if (first) await kill(first);
    if (second) await kill(second);
  }
}, 120_000);
