import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { dagSchema, errorHandlingSchema, type CompiledWorkflow, type NodeState, type RunStatus } from '../../lib/dag/model';
import { RUN_SEARCH_ATTRIBUTES } from '../../lib/runs/searchAttributes';
import { DEFAULT_RUN_OPTIONS, type EvalContext, type ReservedTurn, type RunInput, type RunStateView, type RunSummary, type ToolActivityAnswer, type ToolActivityInput } from '../../lib/runs/types';
import { temporalBinary } from '../helpers/temporalBinary';

/**
 * The DAG interpreter (workflows/runs/interpreter.ts) on its own: the real workflow bundle on a private Temporal dev
 * server (TestWorkflowEnvironment.createLocal with the CLI that scripts/services built), every activity a jest mock
 * with canned outcomes. No database, object storage or API: what is checked is the interpreter's part of each node
 * type and join (which activities it calls, with what, and the node states and run status it ends with).
 * Every execution is replayed at the end, like the suite's global teardown does for the shared worker.
 */

const TEMPORAL_BIN = temporalBinary();
const TASK_QUEUE = 'workflows-mocked';
const ORG = '00000000-0000-4000-8000-000000000001';

type Tool = (input: ToolActivityInput) => Promise<ToolActivityAnswer>;

/**
 * Tool activities (named by tool id): `echo` answers its node id and what it read, `boom` fails, `block` waits to be
 * cancelled, `turn` is given its behaviour by the test (a call deferred for its turn under a rate limit).
 */
const tools = {
  echo: jest.fn<ReturnType<Tool>, Parameters<Tool>>(),
  boom: jest.fn<ReturnType<Tool>, Parameters<Tool>>(),
  block: jest.fn<ReturnType<Tool>, Parameters<Tool>>(),
  turn: jest.fn<ReturnType<Tool>, Parameters<Tool>>(),
};

const echo: Tool = async (input) => ({ output: { node: input.nodeId, read: input.context.nodes, item: input.context.iterator?.value ?? null }, attempt: 1 });
const boom: Tool = async () => {
  throw ApplicationFailure.create({ type: 'BOOM', message: 'tool failed', nonRetryable: true, details: [{ attempt: 1 }] });
};
/** Resolved once a `block` activity runs: a test that needs it running (not just scheduled) waits for it. */
let blockStarted: Promise<void>;
let markBlockStarted: () => void;
const afterBlockStarted =
  (tool: Tool): Tool =>
  async (input) => {
    await blockStarted;
    return tool(input);
  };

/** Heartbeats until the workflow cancels it: cancellation reaches an activity through its heartbeats. */
const block: Tool = async () => {
  const ctx = Context.current();
  markBlockStarted();
  const beat = setInterval(() => ctx.heartbeat(), 50);
  try {
    await ctx.cancelled;
    throw new Error('unreachable: ctx.cancelled only rejects');
  } finally {
    clearInterval(beat);
  }
};

const child: CompiledWorkflow = {
  ...compiled('child', [node('c1', 'echo')], [], ['c1']),
  parameters: [{ name: 'x', type: 'integer', required: true }],
};

/** The interpreter's other activities (activities/runs/runActivities.ts), with canned answers. */
const runActivities = {
  runMarkRunning: jest.fn(async (_input: { runId: string }) => undefined),
  runFinish: jest.fn(
    async (_input: { runId: string; status: RunStatus; nodeStates?: Record<string, NodeState>; results: Record<string, unknown> }) => undefined,
  ),
  runCreateChildRun: jest.fn(async (_input: { runId: string; workflowId: string; parentRunId: string; parentNodeId: string }) => undefined),
  runSaveNodeStates: jest.fn(async () => undefined),
  runEvaluateCondition: jest.fn(async (input: { expression: string; context: EvalContext }) => ({ result: input.expression === 'true' })),
  runResolveLoopItems: jest.fn(async (_input: { items: string }) => ({ count: 3, items: [1, 2, 3] as unknown[] })),
  runStoreValue: jest.fn(async () => ({ $ref: 's3://mocked/value.json' })),
  runRenderValue: jest.fn(async (input: { value: unknown }) => input.value),
  runLoadSubworkflow: jest.fn(async (_input: { workflowId: string }) => child),
  runRecordDeadLetter: jest.fn(async () => ({ id: 'dead-letter' })),
};

function node(id: string, tool: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, type: 'tool', config: { tool, config: extra } };
}

function compiled(
  workflowId: string,
  nodes: unknown[],
  edges: [string, string][],
  exitPoints: string[],
  errorHandling: Record<string, unknown> = {},
): CompiledWorkflow {
  const dag = dagSchema.parse({ nodes, edges: edges.map(([from, to]) => ({ from, to })) });
  return {
    workflowId,
    organizationId: ORG,
    version: 1,
    name: workflowId,
    dag: { ...dag, entryPoints: [], exitPoints },
    parameters: [],
    errorHandling: errorHandlingSchema.parse(errorHandling),
  };
}

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
/** ids of every execution the tests start (runs and their children), replayed at the end */
const executions: string[] = [];

beforeAll(async () => {
  // Failed activities and runs are logged at WARN; here they are expected.
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // a runtime exists already in this jest process: keep its logger
  }
  env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: TEMPORAL_BIN },
      searchAttributes: Object.values(RUN_SEARCH_ATTRIBUTES),
    },
  });
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    // the bundle global setup built from workflows/index.ts (the shared worker runs the same one)
    workflowBundle: { codePath: process.env.TEMPORAL_WORKFLOW_BUNDLE! },
    activities: { ...runActivities, ...tools },
    // cancellation reaches a running activity in a heartbeat's answer: do not hold heartbeats back
    maxHeartbeatThrottleInterval: '50ms',
    defaultHeartbeatThrottleInterval: '50ms',
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  if (worker) {
    worker.shutdown();
    await running;
  }
  await env?.teardown();
});

beforeEach(() => {
  for (const mock of [...Object.values(runActivities), ...Object.values(tools)]) mock.mockClear();
  tools.echo.mockImplementation(echo);
  tools.boom.mockImplementation(boom);
  tools.block.mockImplementation(block);
  tools.turn.mockReset();
  blockStarted = new Promise((resolve) => (markBlockStarted = resolve));
});

interface Outcome {
  status: RunStatus;
  summary: RunSummary;
  /** node states as the run stored them (runFinish) */
  states: Record<string, NodeState>;
}

/** Runs a definition as a `run` execution to its end, failed or not. */
async function run(definition: CompiledWorkflow): Promise<Outcome> {
  const runId = randomUUID();
  executions.push(runId);
  const input: RunInput = {
    runId,
    organizationId: ORG,
    compiled: definition,
    parameters: {},
    trigger: { type: 'manual' },
    options: DEFAULT_RUN_OPTIONS,
    kind: 'run',
    depth: 0,
  };
  let summary: RunSummary;
  try {
    summary = await env.client.workflow.execute<(i: RunInput) => Promise<RunSummary>>('dagRunWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: runId,
      args: [input],
    });
  } catch (err) {
    if (!(err instanceof WorkflowFailedError) || !(err.cause instanceof ApplicationFailure)) throw err;
    summary = err.cause.details?.[0] as RunSummary;
  }
  const finish = runActivities.runFinish.mock.calls.find(([call]) => call.runId === runId)?.[0];
  if (!finish?.nodeStates) throw new Error(`run ${runId} stored no node states`);
  expect(finish.status).toBe(summary.status);
  return { status: summary.status, summary, states: finish.nodeStates };
}

const statuses = (states: Record<string, NodeState>): Record<string, string> =>
  Object.fromEntries(Object.entries(states).map(([id, s]) => [id, s.status]));

const toolNodes = (mock: jest.Mock<ReturnType<Tool>, Parameters<Tool>>): string[] => mock.mock.calls.map(([input]) => input.nodeId);

describe('the interpreter with mocked activities', () => {
  test('tool nodes run in dependency order; a node reads only the outputs its config mentions', async () => {
    const { status, summary, states } = await run(
      compiled('tools', [node('a', 'echo'), node('b', 'echo', { data: '${nodes.a.node}' }), node('c', 'echo')], [['a', 'b'], ['b', 'c']], ['c']),
    );
    expect(status).toBe('completed');
    expect(toolNodes(tools.echo)).toEqual(['a', 'b', 'c']);
    expect(tools.echo.mock.calls[1]![0].context.nodes).toEqual({ a: { node: 'a', read: {}, item: null } });
    expect(summary.results).toEqual({ c: { node: 'c', read: {}, item: null } });
    expect(runActivities.runMarkRunning).toHaveBeenCalledTimes(1);
    expect(statuses(states)).toEqual({ a: 'completed', b: 'completed', c: 'completed' });
  });

  test('a failed tool fails the run and skips its successors; an independent branch still runs', async () => {
    const { status, summary, states } = await run(
      compiled('failure', [node('a', 'boom'), node('b', 'echo'), node('c', 'echo')], [['a', 'b']], ['b', 'c']),
    );
    expect(status).toBe('failed');
    expect(statuses(states)).toEqual({ a: 'failed', b: 'skipped', c: 'completed' });
    expect(states.a!.error).toEqual({ code: 'BOOM', message: 'tool failed' });
    expect(summary.errors).toMatchObject([{ node: 'a', code: 'BOOM', attempt: 1 }]);
  });

  test('a dead-lettered failure is recorded and handled: the run completes, a node with another completed predecessor runs', async () => {
    const { status, states } = await run(
      compiled('dead-letter', [node('a', 'boom'), node('b', 'echo'), node('c', 'echo')], [['a', 'c'], ['b', 'c']], ['c'], {
        node_overrides: { a: { strategy: 'dead_letter_queue', dead_letter_queue: { queue: 'q' } } },
      }),
    );
    expect(status).toBe('completed');
    expect(runActivities.runRecordDeadLetter).toHaveBeenCalledWith(expect.objectContaining({ nodeId: 'a', queue: 'q', tool: 'boom' }));
    expect(statuses(states)).toEqual({ a: 'failed', b: 'completed', c: 'completed' });
    expect(states.a!.via).toBe('dead_letter');
  });

  test('a condition runs its taken branch and skips the other, with everything after it', async () => {
    const { status, states } = await run(
      compiled(
        'condition',
        [
          { id: 'check', type: 'condition', config: { expression: 'true', trueBranch: 'yes', falseBranch: 'no' } },
          node('yes', 'echo'),
          node('no', 'echo'),
          node('after-no', 'echo'),
        ],
        [['no', 'after-no']],
        ['yes'],
      ),
    );
    expect(status).toBe('completed');
    expect(runActivities.runEvaluateCondition).toHaveBeenCalledWith(expect.objectContaining({ expression: 'true' }));
    expect(statuses(states)).toEqual({ check: 'completed', yes: 'completed', no: 'skipped', 'after-no': 'skipped' });
    expect(states.check!.output).toEqual({ result: true, branch: 'yes' });
  });

  test('a loop runs its template once per item, outputs in item order', async () => {
    const { status, summary } = await run(
      compiled(
        'loop',
        [{ id: 'each', type: 'loop', config: { items: '[1, 2, 3]', concurrency: 2, template: { type: 'tool', config: { tool: 'echo', config: {} } } } }],
        [],
        ['each'],
      ),
    );
    expect(status).toBe('completed');
    expect(runActivities.runResolveLoopItems).toHaveBeenCalledWith(expect.objectContaining({ items: '[1, 2, 3]' }));
    expect(toolNodes(tools.echo).sort()).toEqual(['each[0]', 'each[1]', 'each[2]']);
    expect(summary.results.each).toEqual({
      count: 3,
      results: [1, 2, 3].map((item, i) => ({ node: `each[${i}]`, read: {}, item })),
    });
  });

  test('a subworkflow runs the loaded definition as a child run; its exit points are the output', async () => {
    const outcome = await run(
      compiled('parent', [{ id: 'sub', type: 'subworkflow', config: { workflow_id: 'child', inputs: { x: 1 } } }], [], ['sub']),
    );
    const { status, summary, states } = outcome;
    const childRunId = states.sub!.child_run_id!;
    executions.push(childRunId);
    expect(status).toBe('completed');
    expect(runActivities.runLoadSubworkflow).toHaveBeenCalledWith(expect.objectContaining({ workflowId: 'child' }));
    expect(runActivities.runRenderValue).toHaveBeenCalledWith(expect.objectContaining({ value: { x: 1 } }));
    expect(summary.results.sub).toEqual({ c1: { node: 'c1', read: {}, item: null } });
    // the child owns a run row: written by the parent first (its id is the child's workflow id), then kept by the child
    expect(childRunId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(runActivities.runCreateChildRun).toHaveBeenCalledWith(
      expect.objectContaining({ runId: childRunId, workflowId: 'child', parentRunId: summary.runId, parentNodeId: 'sub', parameters: { x: 1 } }),
    );
    expect(runActivities.runMarkRunning.mock.calls.map(([call]) => call.runId).sort()).toEqual([summary.runId, childRunId].sort());
    expect(runActivities.runFinish.mock.calls.map(([call]) => [call.runId, call.status])).toEqual([
      [childRunId, 'completed'],
      [summary.runId, 'completed'],
    ]);
  });

  const parallel = (joinStrategy: string, branches: Record<string, string[]>, n?: number) => ({
    id: 'p',
    type: 'parallel',
    config: { joinStrategy, ...(n ? { n } : {}), branches: Object.entries(branches).map(([id, nodes]) => ({ id, nodes })) },
  });

  test('parallel wait_all: every branch completes; the output holds each branch by member', async () => {
    const { status, states } = await run(
      compiled('wait-all', [parallel('wait_all', { b1: ['x'], b2: ['y'] }), node('x', 'echo'), node('y', 'echo'), node('after', 'echo')], [['p', 'after']], ['after']),
    );
    expect(status).toBe('completed');
    expect(statuses(states)).toEqual({ p: 'completed', x: 'completed', y: 'completed', after: 'completed' });
    expect(states.p!.output).toEqual({
      branches: { b1: { x: { node: 'x', read: {}, item: null } }, b2: { y: { node: 'y', read: {}, item: null } } },
      completed: ['b1', 'b2'],
    });
  });

  test('parallel wait_all: one failed branch fails the join (JOIN_FAILED) and skips what follows', async () => {
    const { status, states, summary } = await run(
      compiled('join-failed', [parallel('wait_all', { b1: ['x'], b2: ['y'] }), node('x', 'echo'), node('y', 'boom'), node('after', 'echo')], [['p', 'after']], ['after']),
    );
    expect(status).toBe('failed');
    expect(statuses(states)).toEqual({ p: 'failed', x: 'completed', y: 'failed', after: 'skipped' });
    expect(states.p!.error).toEqual({ code: 'JOIN_FAILED', message: 'wait_all needs 2 completed branches; 1 failed or were cancelled' });
    // the unmet join is a failure of its own in errors[], after the branch's
    expect(summary.errors.map((e) => [e.node, e.code])).toEqual([
      ['y', 'BOOM'],
      ['p', 'JOIN_FAILED'],
    ]);
  });

  test('parallel wait_any: the first completed branch wins; the running loser is cancelled', async () => {
    tools.echo.mockImplementation(afterBlockStarted(echo));
    const { status, states } = await run(
      compiled('wait-any', [parallel('wait_any', { fast: ['x'], slow: ['y'] }), node('x', 'echo'), node('y', 'block')], [], ['p']),
    );
    expect(status).toBe('completed');
    expect(statuses(states)).toEqual({ p: 'completed', x: 'completed', y: 'cancelled' });
    expect(states.p!.output).toMatchObject({ completed: ['fast'] });
  });

  test('parallel wait_n: n completed branches are enough, a failed one is tolerated', async () => {
    const { status, states } = await run(
      compiled('wait-n', [parallel('wait_n', { b1: ['x'], b2: ['y'], b3: ['z'] }, 2), node('x', 'echo'), node('y', 'boom'), node('z', 'echo')], [], ['p']),
    );
    // the join was met without b2: its failure stays in its state and errors[], and does not fail the run
    expect(status).toBe('completed');
    expect(statuses(states)).toEqual({ p: 'completed', x: 'completed', y: 'failed', z: 'completed' });
    expect(states.p!.output).toMatchObject({ completed: ['b1', 'b3'] });
  });

  test('fail_fast: the first failure fails the run and cancels the nodes still running', async () => {
    tools.boom.mockImplementation(afterBlockStarted(boom));
    const { status, states, summary } = await run(
      compiled('fail-fast', [node('a', 'boom'), node('b', 'block'), node('c', 'echo')], [['b', 'c']], ['c'], { default_strategy: 'fail_fast' }),
    );
    expect(status).toBe('failed');
    expect(statuses(states)).toEqual({ a: 'failed', b: 'cancelled', c: 'cancelled' });
    expect(summary.errors).toMatchObject([{ node: 'a', code: 'BOOM' }]);
  });

  /** A tool call's turn under a rate limit, handed back to the run (docs/runs.md#rate-limits-on-destinations). */
  const reserved: ReservedTurn = { atUs: 1_900_000_000_000_000, limits: ['host:api.partner.example'] };
  const deferred = (attempt: number, waitMs = 2_500): ToolActivityAnswer => ({
    deferred: { turn: reserved, waitMs, until: '2030-03-17T17:46:40.000Z' },
    attempt,
  });

  test('a call deferred for its turn under a rate limit: the node shows the wait, the run waits, and calls again with the turn, the attempt not spent', async () => {
    tools.turn.mockImplementationOnce(async () => deferred(1)).mockImplementationOnce(async (input) => ({ output: { called: input.turns }, attempt: 1 }));
    const runId = randomUUID();
    executions.push(runId);
    const definition = compiled('turns', [node('call', 'turn')], [], ['call']);
    const input: RunInput = { runId, organizationId: ORG, compiled: definition, parameters: {}, trigger: { type: 'manual' }, options: DEFAULT_RUN_OPTIONS, kind: 'run', depth: 0 };
    const handle = await env.client.workflow.start<(i: RunInput) => Promise<RunSummary>>('dagRunWorkflow', { taskQueue: TASK_QUEUE, workflowId: runId, args: [input] });
    let waiting: RunStateView['nodeStates'][string] | undefined;
    const deadline = Date.now() + 10_000;
    while (!waiting?.waiting_for && Date.now() < deadline) {
      waiting = (await handle.query<RunStateView>('runState')).nodeStates.call;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(waiting).toMatchObject({ status: 'running', waiting_until: '2030-03-17T17:46:40.000Z', waiting_for: { reason: 'rate_limit', limits: reserved.limits } });
    const waitedFrom = Date.now();
    const summary = await handle.result();
    // 2.5 s away: the run sleeps until 1 s before the turn (TURN_LEAD_MS), then the activity waits the rest
    expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(1_000);
    expect(summary.results.call).toEqual({ called: { defer: true, reserved } });
    const [first, second] = tools.turn.mock.calls.map(([call]) => call);
    expect(first).toMatchObject({ attemptBase: 0, turns: { defer: true } });
    expect(first!.turns).not.toHaveProperty('reserved');
    expect(second).toMatchObject({ attemptBase: 0, turns: { defer: true, reserved } });
    const finish = runActivities.runFinish.mock.calls.find(([call]) => call.runId === runId)![0];
    expect(finish.nodeStates!.call).toMatchObject({ status: 'completed', attempts: 1 });
    expect(finish.nodeStates!.call).not.toHaveProperty('waiting_for');
    expect(finish.nodeStates!.call).not.toHaveProperty('waiting_until');
  });

  test("a call deferred for its turn: attempts failed before the deferral count in the node's budget: none is made twice or beyond it", async () => {
    // as the tool wrapper numbers attempts: Temporal's, after those of the calls before
    tools.turn.mockImplementation(async (input) => {
      const attempt = Context.current().info.attempt + input.attemptBase;
      if (!input.turns?.reserved && attempt === 2) return deferred(attempt, 2_100);
      throw ApplicationFailure.create({ type: 'FLAKY', message: 'try again', details: [{ attempt }] });
    });
    const { status, states } = await run(
      compiled('turns-budget', [{ ...node('call', 'turn'), retryPolicy: { max_attempts: 2, backoff: 'fixed', initial_delay: 1000 } }], [], ['call']),
    );
    expect(status).toBe('failed');
    // attempt 1 failed, attempt 2 deferred (no call), attempt 2 made with the turn and failed: the budget is spent
    expect(tools.turn.mock.calls.map(([call]) => [call.attemptBase, Boolean(call.turns?.reserved)])).toEqual([
      [0, false],
      [0, false],
      [1, true],
    ]);
    expect(states.call).toMatchObject({ status: 'failed', attempts: 2, error: { code: 'FLAKY' } });
  });

  test('every execution above replays against the workflow bundle', async () => {
    expect(executions.length).toBeGreaterThan(1);
    async function* histories() {
      for (const workflowId of executions) yield { workflowId, history: await env.client.workflow.getHandle(workflowId).fetchHistory() };
    }
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath: process.env.TEMPORAL_WORKFLOW_BUNDLE! } }, histories())) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(executions.length);
  });
});
