import { dagSchema, errorHandlingSchema, parameterSchema, type StoredDefinition } from '../../lib/dag/model';
import { insertVersion, insertWorkflow, updateWorkflowRow } from '../../domain/workflows/queries';
import { randomUUID } from 'node:crypto';
import type { History } from '@temporalio/common/lib/proto-utils';
import type { TestApi } from './stack';
import { startApiWithTenant, type TestTenant } from './tenants';

/**
 * Fixtures for run tests: workflows written straight through the workflows domain's queries (compiled the way
 * the API stores them: zod defaults applied, entry and exit points derived), and polling helpers.
 */

export interface WorkflowSpec {
  name?: string;
  nodes: unknown[];
  edges?: { from: string; to: string }[];
  parameters?: unknown[];
  errorHandling?: unknown;
  status?: 'draft' | 'active' | 'paused' | 'archived';
}

export function compileSpec(spec: WorkflowSpec): StoredDefinition {
  const dag = dagSchema.parse({ nodes: spec.nodes, edges: spec.edges ?? [] });
  const incoming = new Set(dag.edges.map((e) => e.to));
  const outgoing = new Set(dag.edges.map((e) => e.from));
  for (const node of dag.nodes) {
    const config = node.config as { trueBranch?: string; falseBranch?: string; branches?: { nodes: string[] }[] };
    for (const target of [config.trueBranch, config.falseBranch]) {
      if (node.type === 'condition' && target) {
        incoming.add(target);
        outgoing.add(node.id);
      }
    }
    if (node.type === 'parallel') for (const b of config.branches ?? []) for (const m of b.nodes) incoming.add(m);
  }
  // Branch members are inside their parallel node: never exit points (as lib/dag/structure.ts derives them).
  const members = new Set(
    dag.nodes.flatMap((n) => (n.type === 'parallel' ? ((n.config as { branches?: { nodes: string[] }[] }).branches ?? []).flatMap((b) => b.nodes) : [])),
  );
  return {
    dag: {
      ...dag,
      entryPoints: dag.nodes.filter((n) => !incoming.has(n.id)).map((n) => n.id),
      exitPoints: dag.nodes.filter((n) => !outgoing.has(n.id) && !members.has(n.id)).map((n) => n.id),
    },
    tools: [],
    triggers: [],
    parameters: (spec.parameters ?? []).map((p) => parameterSchema.parse(p)),
    errorHandling: errorHandlingSchema.parse(spec.errorHandling ?? {}),
  };
}

export async function createWorkflowFixture(api: TestApi, tenant: TestTenant, spec: WorkflowSpec): Promise<string> {
  const row = await insertWorkflow(api.deps.db, {
    organizationId: tenant.organizationId,
    name: spec.name ?? 'run fixture',
    description: '',
    tags: [],
    category: null,
    metadata: {},
    createdBy: tenant.owner.userId,
    definition: compileSpec(spec),
  });
  if (spec.status && spec.status !== 'draft') {
    await updateWorkflowRow(api.deps.db, tenant.organizationId, row.id, { status: spec.status });
  }
  return row.id;
}

/** A new current version of an existing fixture (what an update of the graph does). */
export async function addWorkflowVersion(api: TestApi, tenant: TestTenant, workflowId: string, version: number, spec: WorkflowSpec): Promise<void> {
  await insertVersion(api.deps.db, {
    workflowId,
    organizationId: tenant.organizationId,
    version,
    definition: compileSpec(spec),
    createdBy: tenant.owner.userId,
  });
  await updateWorkflowRow(api.deps.db, tenant.organizationId, workflowId, { current_version: version });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunBody = any;

/** Polls GET run until `until(run)` holds (default: a terminal status). */
export async function waitForRun(
  api: TestApi,
  token: string,
  workflowId: string,
  runId: string,
  until: (run: RunBody) => boolean = (run) => ['completed', 'failed', 'cancelled'].includes(run.status),
  timeoutMs = 90_000,
): Promise<RunBody> {
  const deadline = Date.now() + timeoutMs;
  let last: RunBody;
  while (Date.now() < deadline) {
    const res = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${runId}`, { token });
    if (res.status !== 200) throw new Error(`GET run answered ${res.status}: ${res.text}`);
    last = res.body;
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`run ${runId} did not reach the expected state; last: ${JSON.stringify(last).slice(0, 2000)}`);
}

export async function startRun(
  api: TestApi,
  token: string,
  workflowId: string,
  parameters: Record<string, unknown> = {},
): Promise<RunBody> {
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token, body: { parameters } });
  if (res.status !== 201) throw new Error(`start run answered ${res.status}: ${res.text}`);
  return res.body;
}

/** Starts a run and waits for it to finish. */
export async function runToEnd(api: TestApi, token: string, workflowId: string, parameters: Record<string, unknown> = {}): Promise<RunBody> {
  const run = await startRun(api, token, workflowId, parameters);
  return waitForRun(api, token, workflowId, run.id);
}

/** Tool node shorthand. */
export function toolNode(id: string, tool: string, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): unknown {
  return { id, type: 'tool', config: { tool, config, ...extra } };
}

export const RUN_TEST_CONFIG = {
  RUN_HEARTBEAT_TIMEOUT: '3s',
  RUN_LOOP_BATCH_SIZE: '50',
  RUN_LARGE_OUTPUT_BYTES: '2048',
};

/** The payload-budget suites run at the default limits, as users run them: only the heartbeat is short. */
export const DEFAULT_LIMITS_TEST_CONFIG = { RUN_HEARTBEAT_TIMEOUT: '3s' };

/**
 * The preamble of the run suites: an API configured for runs (RUN_TEST_CONFIG, or `config`) and a tenant on it, up
 * before the file's tests and closed after them. `take` receives them once started.
 */
export function useRunApi(
  take: (started: { api: TestApi; tenant: TestTenant; token: string }) => void,
  config: Record<string, string> = RUN_TEST_CONFIG,
): void {
  let api: TestApi | undefined;
  beforeAll(async () => {
    const started = await startApiWithTenant(config);
    api = started.api;
    take(started);
  });
  afterAll(async () => {
    await api?.close();
  });
}

/** ~200 kB: an output inline under the default 256 KiB large-output threshold. */
export const PADDED_CHARS = 200_000;

/** A node whose output `{ result }` is PADDED_CHARS characters, kept inline at the default limits. */
export const paddedProducer = (id: string): unknown =>
  toolNode(id, 'json_transform', { expression: `$pad('', ${PADDED_CHARS}, 'x')`, data: null });

/** A stored value's reference (`{ $ref }`), as node states and results show large values. */
export const isStoredRef = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';

type HistoryEvent = NonNullable<History['events']>[number];

/**
 * The most `weigh` adds up over the commands of one workflow task of an execution: the events a task's completion
 * recorded follow its WorkflowTaskCompleted event, so the sum starts again at each one.
 */
export async function largestPerWorkflowTask(api: TestApi, workflowId: string, weigh: (event: HistoryEvent) => number): Promise<number> {
  const history = await api.deps.temporal.workflow.getHandle(workflowId).fetchHistory();
  let largest = 0;
  let current = 0;
  for (const event of history.events ?? []) {
    if (event.workflowTaskCompletedEventAttributes) current = 0;
    current += weigh(event);
    largest = Math.max(largest, current);
  }
  return largest;
}

/** Fast retries for tests: the definition's retry_config. */
export const FAST_RETRY = { max_attempts: 3, backoff: 'fixed', initial_delay: 50 };

/** Inserts a dead letter of an unrelated run that expires at `expiresAt` (purge tests); returns its id. */
export async function insertDeadLetter(api: TestApi, organizationId: string, expiresAt: Date): Promise<string> {
  const [row] = await api.deps.db('dead_letters')
    .insert({
      organization_id: organizationId,
      workflow_id: randomUUID(),
      workflow_version: 1,
      run_id: randomUUID(),
      node_id: 'n',
      error: JSON.stringify({ code: 'X', message: 'x' }),
      attempts: 1,
      expires_at: expiresAt,
    })
    .returning('id');
  return (row as { id: string }).id;
}

/** The most of these spans (a node's start to end, ms) open at one moment: an end before a start at the same instant. */
export function maxOverlap(spans: { start: number; end: number }[]): number {
  const points = spans.flatMap((s) => [
    { t: s.start, d: 1 },
    { t: s.end, d: -1 },
  ]);
  points.sort((a, b) => a.t - b.t || a.d - b.d);
  let open = 0;
  let max = 0;
  for (const p of points) max = Math.max(max, (open += p.d));
  return max;
}
