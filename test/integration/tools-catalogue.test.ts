import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { waitForLine } from '../setup/state';
import { waitForRun } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { TURN_IN_PLACE_MAX_MS } from '../../lib/runs/turns';

/**
 * The tool catalogue (docs/adding-a-tool.md#how-a-new-tool-appears): workers publish the tools they run when they
 * start, and the API lists and validates against that, so a tool added while the stack runs appears after a restart
 * of the worker alone. And the test tools (delay, fail) exist only where TOOLS_TEST_TOOLS_ENABLED is true.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const RUN_DIR = process.env.LOOM_TEST_DIR ?? path.join(ROOT, '.data', 'test');
const QUEUE = `${process.env.TEMPORAL_TASK_QUEUE ?? 'loom-test'}-catalogue`;
const TOOL = 'probe_word_count';
// Inside the repository's tree, so the module resolves `zod` from node_modules like a tool of activities/tools/.
const EXTRA_DIR = path.join(RUN_DIR, 'extra-tools');

const TOOL_SOURCE = `import { z } from 'zod';
import { defineTool } from ${JSON.stringify(path.join(ROOT, 'activities', 'tools', 'types'))};

export default defineTool({
  id: '${TOOL}',
  name: 'Word count (probe)',
  category: 'data',
  description: 'Counts the words of text; a tool of a TOOLS_DIRECTORIES folder.',
  input: z.strictObject({ text: z.string().max(10_000), min_length: z.int().min(1).optional() }),
  output: z.object({ count: z.int(), words: z.array(z.string()) }),
  sideEffect: 'none',
  defaultTimeoutMs: 7_000,
  async execute(input) {
    const words = input.text.split(/\\s+/).filter((w) => w.length >= (input.min_length ?? 1));
    return { count: words.length, words };
  },
});
`;

const workers: ChildProcess[] = [];

/** A worker process on the test's own queue, with `env` over the run's; resolves once it says "worker started". */
async function startWorker(name: string, env: Record<string, string>): Promise<ChildProcess> {
  const logPath = path.join(RUN_DIR, `${name}.log`);
  const out = openSync(logPath, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: ROOT,
    // Its own queue and no metrics ports; no schedules or dispatcher that would outlive the test on its queue.
    env: { ...process.env, TEMPORAL_TASK_QUEUE: QUEUE, WORKER_METRICS_PORT: '0', WORKER_SDK_METRICS_PORT: '0', WORKER_ENSURE_BACKGROUND_JOBS: 'false', ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  workers.push(child);
  await waitForLine(logPath, /worker started/, 120_000, () => child.exitCode);
  return child;
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 20_000)))]);
  clearTimeout(timer);
  if (child.exitCode === null) child.kill('SIGKILL');
}

let shared: TestApi;
let noTestTools: TestApi;
let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  mkdirSync(EXTRA_DIR, { recursive: true });
  writeFileSync(path.join(EXTRA_DIR, `${TOOL}.ts`), TOOL_SOURCE);
  shared = await startApi();
  noTestTools = await startApi({ TOOLS_TEST_TOOLS_ENABLED: 'false' });
}, 60_000);

afterAll(async () => {
  for (const child of workers) await stopWorker(child);
  await shared?.close();
  await noTestTools?.close();
  await api?.close();
}, 60_000);

const ids = async (target: TestApi, token: string): Promise<string[]> => {
  const res = await target.request('GET', '/api/v1/tools', { token });
  expect(res.status).toBe(200);
  return res.body.data.map((t: { id: string }) => t.id);
};

const oneNode = (tool: string, config: Record<string, unknown>) => ({
  name: `uses ${tool}`,
  dag: { nodes: [{ id: 'n', type: 'tool', config: { tool, config } }], edges: [] },
});

describe('test tools', () => {
  test('listed and accepted where TOOLS_TEST_TOOLS_ENABLED is true (the test stack)', async () => {
    const t = await createTestTenant(shared);
    expect(await ids(shared, t.owner.token)).toEqual(expect.arrayContaining(['delay', 'fail', 'json_transform']));
    const saved = await shared.request('POST', '/api/v1/workflows', { token: t.owner.token, body: oneNode('delay', { ms: 1 }) });
    expect(saved.status).toBe(201);
  });

  test('hidden, refused in definitions and not testable where it is false, though the worker has them', async () => {
    const t = await createTestTenant(noTestTools);
    const listed = await ids(noTestTools, t.owner.token);
    expect(listed).toContain('json_transform');
    expect(listed).not.toContain('delay');
    expect(listed).not.toContain('fail');
    const saved = await noTestTools.request('POST', '/api/v1/workflows', { token: t.owner.token, body: oneNode('delay', { ms: 1 }) });
    expect(saved.status).toBe(422);
    expect(saved.body.error.details).toEqual([{ path: 'dag.nodes.n.config.tool', problem: 'unknown tool "delay"' }]);
    const dry = await noTestTools.request('POST', '/api/v1/workflows/validate', { token: t.owner.token, body: oneNode('fail', { mode: 'never' }) });
    expect(dry.status).toBe(422);
    expect((await noTestTools.request('POST', '/api/v1/tools/delay/test', { token: t.owner.token, body: { config: { ms: 1 } } })).status).toBe(404);
  });
});

describe('a tool added while the stack runs', () => {
  test('appears after a restart of the worker alone: listed, validated, run, testable', async () => {
    // The API starts first, before any worker of its queue, and is never restarted.
    api = await startApi({ TEMPORAL_TASK_QUEUE: QUEUE, TOOLS_CATALOGUE_REFRESH: '200ms' });
    tenant = await createTestTenant(api);
    const token = tenant.owner.token;

    const before = await startWorker('catalogue-worker-a', {});
    await new Promise((r) => setTimeout(r, 300));
    expect(await ids(api, token)).not.toContain(TOOL);
    const unknown = await api.request('POST', '/api/v1/workflows/validate', { token, body: oneNode(TOOL, { text: 'a b' }) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([{ path: 'dag.nodes.n.config.tool', problem: `unknown tool "${TOOL}"` }]);

    // The worker is restarted with one more tool folder (and without the test tools).
    await stopWorker(before);
    await startWorker('catalogue-worker-b', { TOOLS_DIRECTORIES: EXTRA_DIR, TOOLS_TEST_TOOLS_ENABLED: 'false' });

    let listed: string[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && !listed.includes(TOOL); ) {
      listed = await ids(api, token);
      if (!listed.includes(TOOL)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(listed).toContain(TOOL);
    // what this worker runs, not what the API was built with: no test tools here
    expect(listed).not.toContain('delay');
    const tools = (await api.request('GET', '/api/v1/tools?category=data', { token })).body.data;
    expect(tools.find((t: { id: string }) => t.id === TOOL)).toEqual({
      id: TOOL,
      name: 'Word count (probe)',
      category: 'data',
      description: 'Counts the words of text; a tool of a TOOLS_DIRECTORIES folder.',
      input_schema: {
        type: 'object',
        properties: { text: { type: 'string', maxLength: 10_000 }, min_length: { type: 'integer', minimum: 1 } },
        required: ['text'],
        additionalProperties: false,
      },
      output_schema: {
        type: 'object',
        properties: { count: { type: 'integer' }, words: { type: 'array', items: { type: 'string' } } },
        required: ['count', 'words'],
      },
      side_effect: 'none',
    });

    // Validated against its schema at save...
    const bad = await api.request('POST', '/api/v1/workflows', { token, body: oneNode(TOOL, { text: 5, colour: 'red' }) });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['dag.nodes.n.config.config.colour', 'dag.nodes.n.config.config.text']);
    // ...run by the new worker, with the tool's own time limit...
    const created = await api.request('POST', '/api/v1/workflows', { token, body: oneNode(TOOL, { text: 'to be or not', min_length: 3 }) });
    expect(created.status).toBe(201);
    expect(created.body.tools).toEqual([expect.objectContaining({ id: TOOL, name: 'Word count (probe)' })]);
    const start = await api.request('POST', `/api/v1/workflows/${created.body.id}/runs`, { token, body: {} });
    expect(start.status).toBe(201);
    const run = await waitForRun(api, token, created.body.id, start.body.id);
    expect(run.status).toBe('completed');
    expect(run.node_states.n).toMatchObject({ status: 'completed', output: { count: 1, words: ['not'] } });
    const history = await api.deps.temporal.workflow.getHandle(run.id).fetchHistory();
    const scheduled = history.events!.map((e) => e.activityTaskScheduledEventAttributes).find((a) => a?.activityType?.name === TOOL);
    // The tool's 7 s, plus the room a call may spend waiting for its turn under a rate limit (lib/runs/turns.ts).
    expect(Number(scheduled?.startToCloseTimeout?.seconds)).toBe(7 + TURN_IN_PLACE_MAX_MS / 1000);
    // ...and testable alone.
    const tested = await api.request('POST', `/api/v1/tools/${TOOL}/test`, { token, body: { config: { text: 'one two three' } } });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ status: 'completed', output: { count: 3, words: ['one', 'two', 'three'] }, attempts: 1 });
  }, 300_000);
});
