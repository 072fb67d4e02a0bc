import type { RunStateView } from '../../lib/runs/types';
import type { MinioClient } from '../../lib/storage';
import type { NodeState, RunError, RunViewStatus } from '../../lib/dag/model';
import { isValueRef } from '../../lib/runs/types';
import type { CircuitBreakerRow, DeadLetterRow } from './failureQueries';
import type { RunRow } from './queries';
import type { CircuitBreakerView, DeadLetterView, RunOutcomeView, RunSummaryView, RunView } from './schemas';

/**
 * Row → JSON. Outputs kept in object storage (`{ $ref }`, larger than RUN_LARGE_OUTPUT_BYTES) are not inlined:
 * they are shown as `{ $ref, bytes, download_url }` with a presigned GET link valid for 15 minutes, so a run
 * document stays small however large its outputs are.
 */

const DOWNLOAD_TTL_SECONDS = 15 * 60;

export interface RunLive {
  status: RunViewStatus;
  nodeStates: Record<string, NodeState>;
  errors: RunError[];
  /** a pending run its flow gate holds: why, since when */
  flowWait?: RunStateView['flowWait'];
}

/**
 * Adds `download_url` to the value references inside a value and changes nothing else, so the value keeps its
 * type (a reference with a link is still a reference).
 */
export interface RefLinker {
  <T>(value: T): Promise<T>;
}

export function createRefLinker(storage: MinioClient, bucket: string, organizationId: string): RefLinker {
  const ownPrefix = `s3://${bucket}/org/${organizationId}/runs/`;
  const link = async (value: unknown, depth: number): Promise<unknown> => {
    if (depth > 32 || value === null || typeof value !== 'object') return value;
    if (isValueRef(value)) {
      if (!value.$ref.startsWith(ownPrefix)) return value;
      const key = value.$ref.slice(`s3://${bucket}/`.length);
      return { ...value, download_url: await storage.presignedGetObject(bucket, key, DOWNLOAD_TTL_SECONDS) };
    }
    if (Array.isArray(value)) return Promise.all(value.map((v) => link(v, depth + 1)));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await link(v, depth + 1);
    return out;
  };
  // link() rebuilds objects generically; the shape is unchanged, see RefLinker.
  return <T>(value: T) => link(value, 0) as Promise<T>;
}

function iso(d: Date | string): string;
function iso(d: Date | string | null): string | null;
function iso(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

/** Where a run is seen besides the API: its execution in Temporal Web, its picture page and the console. */
export type RunLinks = RunSummaryView['links'];

/** `publicUrl`: the API's public base URL (SERVICE_PUBLIC_URL). */
export function runLinks(row: Pick<RunRow, 'id' | 'workflow_id'>, temporalUrl: string, publicUrl: string): RunLinks {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    temporal: temporalUrl,
    picture: `${base}/ui/workflows/${encodeURIComponent(row.workflow_id)}/runs/${encodeURIComponent(row.id)}/picture`,
    console: `${base}/console/#/runs/${encodeURIComponent(row.workflow_id)}/${encodeURIComponent(row.id)}`,
  };
}

/** The fields a run shows in lists and in full; `live` (Temporal's view of an open run) overrides the stored status. */
function runBase(row: RunRow, live: RunLive | null, links: RunLinks): Omit<RunSummaryView, 'errors' | 'workflow_name'> {
  const status = live?.status ?? row.status;
  const started = row.started_at ? new Date(row.started_at).getTime() : null;
  const finished = row.completed_at ? new Date(row.completed_at).getTime() : null;
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    workflow_version: row.workflow_version,
    status,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    // milliseconds from start to completion; while the run is open, from start until now
    duration: started === null ? null : (finished ?? Date.now()) - started,
    trigger: row.trigger,
    // a manual run waiting for its approval decision (docs/triggers.md#manual-approval)
    awaiting_approval: status === 'pending' && (row.trigger as { approval?: { status?: string } }).approval?.status === 'pending',
    priority: row.priority ?? null,
    flow: row.flow_keys
      ? { keys: row.flow_keys, waiting_for: live?.flowWait?.reason ?? null, waiting_since: live?.flowWait?.since ?? null }
      : null,
    retry_of: row.retry_of,
    parent: parentOf(row),
    created_by: row.created_by,
    created_at: iso(row.created_at),
    links,
  };
}

/** The run whose subworkflow node started this one (its workflow id travels in the trigger, docs/runs.md#subworkflow-runs). */
function parentOf(row: RunRow): RunSummaryView['parent'] {
  if (!row.parent_run_id || !row.parent_node_id) return null;
  const workflowId = (row.trigger as { parentWorkflowId?: unknown }).parentWorkflowId;
  if (typeof workflowId !== 'string') return null;
  return { run_id: row.parent_run_id, workflow_id: workflowId, node_id: row.parent_node_id };
}

/** A run as listed: the stored row only (no Temporal query, no links to stored outputs). */
/** `workflowName`: null when the workflow is gone (its runs outlive it only while being deleted). */
export function serializeRunSummary(row: RunRow, links: RunLinks, workflowName: string | null): RunSummaryView {
  return { ...runBase(row, null, links), workflow_name: workflowName, errors: row.errors };
}

export async function serializeRun(
  row: RunRow,
  options: { live?: RunLive | null; links: RunLinks; linkRefs: RefLinker },
): Promise<RunView> {
  const live = options.live ?? null;
  return {
    ...runBase(row, live, options.links),
    parameters: row.parameters,
    node_states: await options.linkRefs(live?.nodeStates ?? row.node_states),
    results: await options.linkRefs(row.results),
    errors: live?.errors ?? row.errors,
  };
}

/** The end of a finished run for a webhook caller that waited for it (links to stored outputs included). */
export async function serializeRunOutcome(row: RunRow, linkRefs: RefLinker): Promise<RunOutcomeView> {
  const started = row.started_at ? new Date(row.started_at).getTime() : null;
  const finished = row.completed_at ? new Date(row.completed_at).getTime() : null;
  return {
    run_id: row.id,
    workflow_id: row.workflow_id,
    status: row.status,
    results: await linkRefs(row.results),
    errors: row.errors,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    duration: started === null || finished === null ? null : finished - started,
  };
}

export function serializeDeadLetter(row: DeadLetterRow): DeadLetterView {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    workflow_version: row.workflow_version,
    run_id: row.run_id,
    node_id: row.node_id,
    queue: row.queue,
    tool: row.tool,
    input: row.input,
    error: row.error,
    attempts: row.attempts,
    status: row.status,
    replay_run_id: row.replay_run_id,
    replayed_at: iso(row.replayed_at),
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
  };
}

export function serializeCircuitBreaker(row: CircuitBreakerRow): CircuitBreakerView {
  const halfOpensAt =
    row.state === 'open' && row.opened_at && row.open_timeout_ms !== null
      ? new Date(new Date(row.opened_at).getTime() + row.open_timeout_ms).toISOString()
      : null;
  return {
    tool: row.tool,
    scope: row.scope,
    state: row.state,
    consecutive_failures: row.consecutive_failures,
    opened_at: iso(row.opened_at),
    half_opens_at: halfOpensAt,
    half_open_attempts: row.half_open_attempts,
    half_open_successes: row.half_open_successes,
    last_error: row.last_error,
    updated_at: iso(row.updated_at),
  };
}
