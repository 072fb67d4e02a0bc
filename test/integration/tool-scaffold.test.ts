import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { waitForLine } from '../setup/state';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { RUN_TEST_CONFIG, waitForRun } from '../helpers/runs';

/**
 * The tool scaffold end to end: `scripts/scaffold-tool.ts` writes a tool into the real tree; a freshly started API
 * lists it and validates node configs against its schema; a worker started after the scaffold (on its own task
 * queue: the run's shared worker loaded the tools before the file existed) runs it in a workflow. The files are
 * removed in afterAll, whatever happened.
 */

const ROOT = path.resolve(__dirname, '..', '..');
// Other test files may start an API (which lists and requires every tool file, in name order) while this file exists:
// sorting first keeps the moment between their listing and their require of it, should we delete it then, tiny.
const PROBE_PREFIX = 'a_scaffold_probe_';
const toolId = `${PROBE_PREFIX}${(process.env.LOOM_TEST_RUN_ID ?? Date.now().toString(36)).toLowerCase().replace(/[^a-z0-9]/g, '')}`;
const scaffoldedFiles = [path.join(ROOT, 'activities', 'tools', `${toolId}.ts`), path.join(ROOT, 'test', 'unit', 'tools', `${toolId}.test.ts`)];

function scaffold(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/scaffold-tool.ts', ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Probe files older than an hour are leftovers of a killed run (a live run's are minutes old). */
function removeStaleProbes(): void {
  for (const dir of [path.join(ROOT, 'activities', 'tools'), path.join(ROOT, 'test', 'unit', 'tools')]) {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (name.startsWith(PROBE_PREFIX) && Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { force: true });
    }
  }
}

let scaffoldOutput = '';
let worker: ChildProcess | undefined;
let api: TestApi | undefined;
let tenant: TestTenant;

beforeAll(async () => {
  removeStaleProbes();
  const res = await scaffold(toolId, '--category', 'data');
  scaffoldOutput = res.stdout;
  if (res.code !== 0) throw new Error(`scaffold failed (${res.code}): ${res.stderr}`);

  const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE ?? 'loom-test'}-scaffold`;
  const logPath = path.join(process.env.LOOM_TEST_DIR ?? path.join(ROOT, '.data', 'test'), 'scaffold-worker.log');
  const out = openSync(logPath, 'a');
  worker = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: ROOT,
    // Same database, bucket and workflow bundle (workflows do not change); its own queue and no metrics ports.
    // No schedules or event dispatcher of its own: they would outlive this test on a queue nobody serves.
    env: { ...process.env, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_METRICS_PORT: '0', WORKER_SDK_METRICS_PORT: '0', WORKER_ENSURE_BACKGROUND_JOBS: 'false' },
    stdio: ['ignore', out, out],
  });
  closeSync(out); // the child holds its own copy
  const child = worker;
  await waitForLine(logPath, /worker started/, 90_000, () => child.exitCode);

  api = await startApi({ ...RUN_TEST_CONFIG, TEMPORAL_TASK_QUEUE: taskQueue });
  tenant = await createTestTenant(api);
}, 180_000);

afterAll(async () => {
  try {
    await api?.close();
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker!.once('exit', r));
      worker.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
      clearTimeout(timer);
      if (worker.exitCode === null) worker.kill('SIGKILL');
    }
  } finally {
    for (const file of scaffoldedFiles) rmSync(file, { force: true });
  }
}, 60_000);

test('the scaffold reports the two files it created', () => {
  expect(scaffoldOutput.split('\n').slice(0, 2)).toEqual([
    `scaffold: created activities/tools/${toolId}.ts`,
    `scaffold: created test/unit/tools/${toolId}.test.ts`,
  ]);
});

test('the scaffold refuses existing files and bad ids with one line, exit 2', async () => {
  expect(await scaffold(toolId)).toEqual({
    code: 2,
    stdout: '',
    stderr: `scaffold: activities/tools/${toolId}.ts already exists; choose another tool id\n`,
  });
  const bad = await scaffold('Not-A-Tool');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toBe('scaffold: invalid tool id "Not-A-Tool": snake_case, 2-64 characters, starting with a letter (e.g. word_count)\n');
});

test('a freshly started API lists the new tool with its schemas', async () => {
  const res = await api!.request('GET', '/api/v1/tools?category=data', { token: tenant.owner.token });
  expect(res.status).toBe(200);
  const tool = res.body.data.find((t: { id: string }) => t.id === toolId);
  expect(tool).toMatchObject({
    category: 'data',
    input_schema: { type: 'object', required: ['text'] },
    output_schema: { type: 'object', required: ['text', 'length'] },
  });
});

const node = (config: Record<string, unknown>) => ({ id: 'shout', type: 'tool', config: { tool: toolId, config } });

test('a workflow saving a bad config for the tool is refused with the field named', async () => {
  const res = await api!.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: { name: 'bad scaffold config', dag: { nodes: [node({ text: 5, colour: 'red' })], edges: [] } },
  });
  expect(res.status).toBe(422);
  expect(res.body.error.code).toBe('WORKFLOW_INVALID');
  const paths = res.body.error.details.map((d: { path: string }) => d.path);
  expect(paths.some((p: string) => p.startsWith('dag.nodes.shout.config'))).toBe(true);
});

test('the new tool runs in a workflow as an activity named after it', async () => {
  const created = await api!.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: {
      name: 'scaffolded tool',
      parameters: [{ name: 'word', type: 'string', required: true }],
      dag: { nodes: [node({ text: '${params.word}', uppercase: true })], edges: [] },
    },
  });
  expect(created.status).toBe(201);
  const start = await api!.request('POST', `/api/v1/workflows/${created.body.id}/runs`, {
    token: tenant.owner.token,
    body: { parameters: { word: 'hello' } },
  });
  expect(start.status).toBe(201);
  const run = await waitForRun(api!, tenant.owner.token, created.body.id, start.body.id);
  expect(run.status).toBe('completed');
  expect(run.node_states.shout).toMatchObject({ status: 'completed', output: { text: 'HELLO', length: 5 } });
  const history = await api!.deps.temporal.workflow.getHandle(run.id).fetchHistory();
  const types = history.events!.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  expect(types).toContain(toolId);
});
