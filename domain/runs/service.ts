import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import { AppError, notFound } from '../../lib/errors';
import type { NodeState, RunStatus, RunViewStatus } from '../../lib/dag/model';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { approvalForManualRun } from '../../lib/triggers/approval';
import { checkParameters } from '../../lib/runs/parameters';
import type { RunInput, RunOptions, RunTrigger } from '../../lib/runs/types';
import { runInputOf, startOrFail } from './launch';
import { recordAudit } from '../audit/record';
import type { AppDeps } from '../deps';
import { getApiKeyCreator } from '../organizations/queries';
import type { Actor } from '../principals';
import { loadWorkflowVersion, workflowNames, type LoadedWorkflowVersion } from '../workflows/queries';
import type { RunAdmission } from './admission';
import type { RunExecutions } from './executions';
import { deleteDeadLetter, findDeadLetter, listCircuitBreakers, listDeadLetters, markDeadLetterReplayed, resetCircuitBreaker, type CircuitBreakerRow, type DeadLetterRow } from './failureQueries';
import { findRun, findRunById, isUuid, listOrganizationRuns, listRuns, markRunFinished, singletonCollision, type RunRow } from './queries';
import { placeRun } from './flow';
import type { FlowStateView, ListAllRunsQuery, RerunBody, RunSummaryView, RunView } from './schemas';
import { rerunReuse, withNodeInput } from './rerunPlan';
import { canonicalJson } from '../../lib/canonicalJson';
import { secretFieldProblems } from '../../lib/dag/secretFields';
import { hasTemplates } from '../../lib/expressions';
import { createValidationEnv } from '../workflows/validationEnv';
import { createRefLinker, runLinks, serializeRun, serializeRunSummary, type RunLive } from './serializers';
import type { RunWaiter } from './wait';
import { runStatistics, type RunStats, type RunStatsQuery } from './statistics';

/**
 * The rules of runs: who may start what, parameter checks, retry and dead-letter replay (new runs reusing the
 * completed node outputs of an earlier one), cancellation, and where a run's state is read from (Temporal while it
 * is open, PostgreSQL once it has finished).
 */

const OPEN: RunStatus[] = ['pending', 'running'];
/** Live statuses of an open execution (the runState query). */
const LIVE_OPEN: RunViewStatus[] = ['pending', 'running', 'cancelling'];
/**
 * How long `cancel` waits for the run to close before answering: a busy tool hears of its cancellation within
 * WORKER_HEARTBEAT_THROTTLE (500 ms), so this normally ends `cancelled`; otherwise the answer shows `cancelling`.
 */
const CANCEL_WAIT_MS = 800;

export interface RunsService {
  /** `actor` (who asked, from where) goes to the audit log; absent for starts that are not API requests. */
  /**
   * `existing`: the workflow's singleton control found an open run with the same key; it is answered instead of a
   * new one (docs/runs.md#singleton).
   */
  start(
    organizationId: string,
    workflowId: string,
    request: { parameters: Record<string, unknown>; priority?: number },
    userId: string | null,
    actor?: Actor,
  ): Promise<{ run: RunView; existing: boolean }>;
  get(organizationId: string, workflowId: string, runId: string): Promise<RunView>;
  /**
   * Run and wait: the run once it has finished (`finished`), or as it is after `waitMs` (docs/runs.md#run-and-wait).
   * A finished run is answered from its final row, so a GET right after agrees. `justStarted`: the caller has just
   * created the run (no need to read it before waiting).
   */
  wait(
    organizationId: string,
    workflowId: string,
    runId: string,
    waitMs: number,
    justStarted?: boolean,
  ): Promise<{ finished: boolean; run: RunView }>;
  list(
    organizationId: string,
    workflowId: string,
    query: { status?: RunStatus; limit: number; cursor?: string },
  ): Promise<Page<RunSummaryView>>;
  /** The organization's runs across its workflows, newest first (GET /api/v1/runs). */
  listAll(organizationId: string, query: ListAllRunsQuery): Promise<Page<RunSummaryView>>;
  /** Runs per day by status and duration percentiles per workflow (the console's charts). */
  stats(organizationId: string, query: RunStatsQuery): Promise<RunStats>;
  cancel(organizationId: string, workflowId: string, runId: string, actor?: Actor): Promise<RunView>;
  retry(organizationId: string, workflowId: string, runId: string, userId: string | null, actor?: Actor): Promise<RunView>;
  /**
   * A new run from a finished one (docs/runs.md#rerun): from a node on (everything upstream reused), with edited
   * parameters, on the run's version or another; linked to the original by `retry_of`.
   */
  rerun(organizationId: string, workflowId: string, runId: string, request: RerunBody, userId: string | null, actor?: Actor): Promise<RunView>;
  listDeadLetters(
    organizationId: string,
    query: { workflow_id?: string; run_id?: string; queue?: string; status?: DeadLetterRow['status']; limit: number; cursor?: string },
  ): Promise<Page<DeadLetterRow>>;
  /** 404 for another organization's letter and for one past its retention. */
  getDeadLetter(organizationId: string, id: string): Promise<DeadLetterRow>;
  replayDeadLetter(organizationId: string, id: string, userId: string | null, actor?: Actor): Promise<{ deadLetter: DeadLetterRow; run: RunView }>;
  deleteDeadLetter(organizationId: string, id: string): Promise<void>;
  listCircuitBreakers(organizationId: string): Promise<CircuitBreakerRow[]>;
  /** Closes the tool's breaker of `scope`, or all of the tool's breakers without one (answering the first). */
  resetCircuitBreaker(organizationId: string, tool: string, scope?: string): Promise<CircuitBreakerRow>;
  /** What the workflow's flow gate holds now, per key (docs/runs.md#flow-control). */
  flowState(organizationId: string, workflowId: string): Promise<FlowStateView>;
}

function cursorAfter(cursor: string | undefined): { createdAt: string; id: string } | undefined {
  const position = decodeCursorOrThrow(cursor);
  return position ? { createdAt: position.sort, id: position.id } : undefined;
}

/** What a runs service is built from (domain/services.ts builds one per process). */
export interface RunsServiceParts {
  executions: RunExecutions;
  /** Shared with the webhook ingress, which waits for runs too: one LISTEN connection per process. */
  waiter: RunWaiter;
  /** Gates the starts (domain/runs/admission.ts): the API's pass it; the operator CLI's do not (unlimitedAdmission). */
  admission: RunAdmission;
}

export function createRunsService(deps: AppDeps, { executions, waiter, admission }: RunsServiceParts): RunsService {
  const { db, config } = deps;
  // Tools' time limits and local tools travel with each run, so the interpreter needs no registry (it is workflow code);
  // they come from the tool catalogue the workers published (domain/tools).
  const { tools } = deps;
  /** The tool checks of edited node inputs: the catalogue the workers published, as the workflow validator reads it. */
  const validation = createValidationEnv(tools);
  const options = (): RunOptions => ({ ...config.runs, ...tools.runOptions() });

  const linksOf = (row: RunRow) => runLinks(row, executions.temporalUrl(row.id), config.http.publicUrl);

  const present = async (row: RunRow, live?: RunLive | null): Promise<RunView> =>
    serializeRun(row, {
      live,
      links: linksOf(row),
      linkRefs: createRefLinker(deps.storage, config.minio.bucket, row.organization_id),
    });

  /**
   * A rerun's edited node input: for a tool node named by from_node, literal (no `${...}`: nothing renders it
   * against this run), valid for the tool's input schema, secret references only in the tool's secret fields.
   */
  function checkNodeInput(compiled: LoadedWorkflowVersion['compiled'], fromNode: string | undefined, input: Record<string, unknown>): void {
    const refuse = (path: string, problem: string): never => {
      throw new AppError('VALIDATION_ERROR', 'invalid body', [{ path, problem }]);
    };
    if (fromNode === undefined) refuse('body.node_input', 'give from_node: the node whose input this is');
    const node = compiled.dag.nodes.find((n) => n.id === fromNode)!;
    if (node.type !== 'tool') refuse('body.node_input', `"${fromNode}" is a ${node.type} node: only a tool node's input can be edited`);
    if (hasTemplates(input)) refuse('body.node_input', 'literal values only: a ${...} template would not be rendered against the original run');
    const toolId = String((node.config as { tool?: unknown }).tool);
    const tool = validation.tool(toolId);
    if (!tool) refuse('body.node_input', `the tool "${toolId}" is not available`);
    const problems = [...secretFieldProblems(toolId, tool!.secretFields ?? [], input, 'body.node_input'), ...tool!.configProblems(input, 'body.node_input')];
    if (problems.length) throw new AppError('VALIDATION_ERROR', 'invalid body', problems);
  }

  async function loadRunnable(organizationId: string, workflowId: string, version?: number): Promise<LoadedWorkflowVersion> {
    const loaded = await loadWorkflowVersion(db, organizationId, workflowId, version);
    if (!loaded) throw notFound('workflow');
    const { status } = loaded.workflow;
    if (status === 'paused' || status === 'archived') {
      throw new AppError('INVALID_STATE', `workflow is ${status}: it cannot start runs (only draft and active workflows can)`);
    }
    return loaded;
  }

  /**
   * Who asked for a manual run (start, retry, replay): the user; for an API key, the person the key answers to (its
   * creator, docs/organizations.md#api-keys), so that `created_by` and an approval's `requestedBy` name a person and
   * self-approval rules hold for what their keys start. `trigger.apiKeyId` says that a key did it.
   */
  async function requesterOf(organizationId: string, userId: string | null, actor: Actor | undefined) {
    if (userId !== null || actor?.type !== 'apiKey') return { userId, viaKey: {} };
    return { userId: await getApiKeyCreator(db, organizationId, actor.id), viaKey: { apiKeyId: actor.id } };
  }

  /**
   * Inserts the run row (pending) and starts its execution; a start that fails leaves a failed run, and a 503. With a
   * singleton control, an open run of the same key is answered instead (`existing`), and nothing is started.
   */
  async function launch(values: {
    loaded: LoadedWorkflowVersion;
    parameters: Record<string, unknown>;
    trigger: RunTrigger;
    retryOf: string | null;
    reused?: Record<string, NodeState>;
    createdBy: string | null;
    /** manual runs of a trigger with requireApproval (lib/triggers/approval.ts) */
    approval?: RunInput['approval'];
    /** the API request that asked for the run (X-Request-Id): in its Temporal memo and the worker's log lines */
    requestId?: string;
    /** who asked, and what the `run.started` audit line says; it commits with the run row */
    audit?: { actor: Actor | undefined; after: Record<string, unknown> };
    /** the start's own priority (a retry keeps its original's); else the workflow's */
    priority?: number | null;
  }): Promise<{ row: RunRow; existing: boolean }> {
    const { compiled } = values.loaded;
    const { audit } = values;
    const placement = await placeRun(compiled.organizationId, compiled.flow, values.parameters, values.trigger, values.priority);
    const insert = () =>
      admission.insert(
        {
          id: randomUUID(),
          organizationId: compiled.organizationId,
          workflowId: compiled.workflowId,
          workflowVersion: compiled.version,
          parameters: values.parameters,
          trigger: values.trigger,
          retryOf: values.retryOf,
          createdBy: values.createdBy,
          nodeStates: values.reused,
          flow: placement,
        },
        audit?.actor && ((trx, inserted) => auditRun(trx, audit.actor, compiled.organizationId, 'run.started', inserted.id, audit.after)),
      );
    let row: RunRow;
    try {
      row = await insert();
    } catch (err) {
      const collided = await singletonCollision(db, err, { ...compiled, singletonKey: placement?.singletonKey ?? null });
      if (collided === null) throw err;
      if (collided !== 'ended') return { row: collided, existing: true };
      row = await insert(); // it ended between the two statements: this start is the new singleton
    }
    const input = runInputOf(row, values.loaded, options(), { reused: values.reused, approval: values.approval });
    // For Temporal Web (memo, details): the names behind the ids.
    await startOrFail(deps, executions, input, { organizationName: values.loaded.organizationName, requestId: values.requestId });
    return { row, existing: false };
  }

  function completedStates(row: RunRow): Record<string, NodeState> {
    return Object.fromEntries(Object.entries(row.node_states ?? {}).filter(([, s]) => s.status === 'completed'));
  }

  async function readOpen(row: RunRow): Promise<{ row: RunRow; live: RunLive | null }> {
    if (!OPEN.includes(row.status)) return { row, live: null };
    const live = await executions.liveState(row.id);
    if (live) {
      // The execution may have finished between the read and the query: then the row is authoritative. A run is
      // only shown finished once its final state is stored (results, completed_at), so pollers see one consistent
      // document.
      if (!LIVE_OPEN.includes(live.status)) {
        const fresh = await findRunById(db, row.organization_id, row.id);
        if (fresh && !OPEN.includes(fresh.status)) return { row: fresh, live: null };
        return { row, live: { ...live, status: 'running' } };
      }
      return { row, live };
    }
    // No answer: an execution that closed without reporting (terminated, timed out) is reconciled here.
    const status = await executions.status(row.id);
    if (status && status !== 'RUNNING') {
      const fresh = await findRunById(db, row.organization_id, row.id);
      if (fresh && OPEN.includes(fresh.status)) {
        const final: RunStatus = status === 'COMPLETED' ? 'completed' : status === 'CANCELLED' ? 'cancelled' : 'failed';
        await markRunFinished(db, row.id, final, [
          ...fresh.errors,
          { node: null, code: `EXECUTION_${status}`, message: `the execution ended as ${status.toLowerCase()}`, attempt: 0, time: new Date().toISOString() },
        ]);
        return { row: (await findRunById(db, row.organization_id, row.id))!, live: null };
      }
      return { row: fresh ?? row, live: null };
    }
    return { row, live: null };
  }

  /**
   * A start's line commits with the run row (`launch`), so every run a user started has one, a run whose execution
   * could not start included. A cancellation's comes after the fact: the run was cancelled whether or not it is written.
   */
  async function auditRun(
    into: Db,
    actor: Actor | undefined,
    organizationId: string,
    action: string,
    runId: string,
    after: Record<string, unknown>,
  ): Promise<void> {
    if (!actor) return;
    await recordAudit(into, { organizationId, actor, action, target: { type: 'run', id: runId }, after });
  }

  async function requireWorkflow(organizationId: string, workflowId: string): Promise<string> {
    if (!isUuid(workflowId)) throw notFound('workflow');
    const found: { name: string } | undefined = await db('workflows').where({ id: workflowId, organization_id: organizationId }).first('name');
    if (!found) throw notFound('workflow');
    return found.name;
  }

  async function requireRun(organizationId: string, workflowId: string, runId: string): Promise<RunRow> {
    const row = await findRun(db, organizationId, workflowId, runId);
    if (!row) throw notFound('run');
    return row;
  }

  return {
    async start(organizationId, workflowId, request, caller, actor) {
      await admission.admit(organizationId);
      const { userId, viaKey } = await requesterOf(organizationId, caller, actor);
      const loaded = await loadRunnable(organizationId, workflowId);
      const { values, problems } = checkParameters(loaded.compiled.parameters, request.parameters);
      if (problems.length) throw new AppError('INVALID_PARAMETERS', 'the parameters do not match the declared parameters', problems);
      // A manual trigger with requireApproval makes the run wait, pending, for an approver (docs/triggers.md).
      const approval = approvalForManualRun(loaded.compiled.triggers, config.triggers.defaultApprovalTimeoutMs, userId);
      const { row, existing } = await launch({
        loaded,
        parameters: values,
        trigger: { type: 'manual', userId, ...viaKey, ...(approval ? { approval: approval.record } : {}) },
        retryOf: null,
        createdBy: userId,
        approval: approval?.wait,
        requestId: actor?.requestId,
        audit: { actor, after: { workflowId, version: loaded.compiled.version, trigger: 'manual' } },
        priority: request.priority,
      });
      return { run: await present(row), existing };
    },

    async get(organizationId, workflowId, runId) {
      const { row, live } = await readOpen(await requireRun(organizationId, workflowId, runId));
      return present(row, live);
    },

    async wait(organizationId, workflowId, runId, waitMs, justStarted = false) {
      const known = justStarted ? 'open' : await requireRun(organizationId, workflowId, runId);
      const waited = await waiter.untilFinished(organizationId, runId, waitMs, known);
      if (!waited || waited.workflow_id !== workflowId) throw notFound('run');
      const { row, live } = await readOpen(waited);
      return { finished: !OPEN.includes(row.status), run: await present(row, live) };
    },

    async listAll(organizationId, query) {
      const rows = await listOrganizationRuns(db, organizationId, {
        status: query.status,
        workflowId: query.workflow_id,
        triggerType: query.trigger,
        createdAfter: query.created_after,
        createdBefore: query.created_before,
        runId: query.run_id,
        parameterAlternatives: query.parameter,
        after: cursorAfter(query.cursor),
        limit: query.limit + 1,
      });
      const page = toPage(rows, query.limit, (r) => ({ sort: r.sort_key, id: r.id }));
      const names = await workflowNames(db, organizationId, page.data.map((r) => r.workflow_id));
      return { data: page.data.map((r) => serializeRunSummary(r, linksOf(r), names.get(r.workflow_id) ?? null)), nextCursor: page.nextCursor };
    },

    stats: (organizationId, query) => runStatistics(db, organizationId, query),

    async list(organizationId, workflowId, query) {
      const name = await requireWorkflow(organizationId, workflowId);
      const rows = await listRuns(db, organizationId, workflowId, {
        status: query.status,
        after: cursorAfter(query.cursor),
        limit: query.limit + 1,
      });
      const page = toPage(rows, query.limit, (r) => ({ sort: new Date(r.created_at).toISOString(), id: r.id }));
      return {
        data: page.data.map((r) => serializeRunSummary(r, linksOf(r), name)),
        nextCursor: page.nextCursor,
      };
    },

    async cancel(organizationId, workflowId, runId, actor) {
      const row = await requireRun(organizationId, workflowId, runId);
      if (!OPEN.includes(row.status)) throw new AppError('INVALID_STATE', `run is already ${row.status}`);
      const found = await executions.cancel(runId);
      if (found) await executions.waitClosed(runId, CANCEL_WAIT_MS);
      else await markRunFinished(db, runId, 'cancelled', row.errors);
      await auditRun(db, actor, organizationId, 'run.cancelled', runId, { workflowId });
      const { row: fresh, live } = await readOpen((await findRunById(db, organizationId, runId))!);
      if (!found || !OPEN.includes(fresh.status)) return present(fresh, live);
      // Still open: the cancellation is under way (the execution may not even have taken the request in yet).
      return present(fresh, { nodeStates: live?.nodeStates ?? fresh.node_states ?? {}, errors: live?.errors ?? fresh.errors, status: 'cancelling' });
    },

    async retry(organizationId, workflowId, runId, caller, actor) {
      await admission.admit(organizationId);
      const { userId, viaKey } = await requesterOf(organizationId, caller, actor);
      const original = await requireRun(organizationId, workflowId, runId);
      if (original.status !== 'failed' && original.status !== 'cancelled') {
        throw new AppError('RUN_NOT_RETRYABLE', `run is ${original.status}: only failed or cancelled runs can be retried`);
      }
      const loaded = await loadRunnable(organizationId, workflowId, original.workflow_version);
      // Retries are manual actions: a manual trigger's approval gate applies to them too (docs/triggers.md).
      const approval = approvalForManualRun(loaded.compiled.triggers, config.triggers.defaultApprovalTimeoutMs, userId);
      const { row } = await launch({
        loaded,
        parameters: original.parameters,
        trigger: { type: 'retry', retryOf: original.id, userId, ...viaKey, ...(approval ? { approval: approval.record } : {}) },
        retryOf: original.id,
        reused: completedStates(original),
        createdBy: userId,
        approval: approval?.wait,
        requestId: actor?.requestId,
        audit: { actor, after: { workflowId, version: loaded.compiled.version, trigger: 'retry', retryOf: original.id } },
        priority: original.priority,
      });
      return present(row);
    },

    async rerun(organizationId, workflowId, runId, request, caller, actor) {
      await admission.admit(organizationId);
      const { userId, viaKey } = await requesterOf(organizationId, caller, actor);
      const original = await requireRun(organizationId, workflowId, runId);
      if (OPEN.includes(original.status)) throw new AppError('INVALID_STATE', `run is ${original.status}: only a finished run can be rerun`);
      const version = request.version === undefined || request.version === 'original' ? original.workflow_version : request.version === 'latest' ? undefined : request.version;
      const loaded = await loadRunnable(organizationId, workflowId, version);
      if (request.from_node !== undefined && !loaded.compiled.dag.nodes.some((n) => n.id === request.from_node)) {
        const where = `version ${loaded.compiled.version}`;
        throw new AppError('VALIDATION_ERROR', 'invalid body', [{ path: 'body.from_node', problem: `no node "${request.from_node}" in ${where} of the workflow` }]);
      }
      if (request.node_input !== undefined) checkNodeInput(loaded.compiled, request.from_node, request.node_input);
      const { values, problems } = checkParameters(loaded.compiled.parameters, { ...original.parameters, ...request.parameters });
      if (problems.length) throw new AppError('INVALID_PARAMETERS', 'the parameters do not match the declared parameters', problems);
      const originalVersion = original.workflow_version === loaded.compiled.version ? loaded : await loadWorkflowVersion(db, organizationId, workflowId, original.workflow_version);
      const changedParams = new Set(
        [...new Set([...Object.keys(values), ...Object.keys(original.parameters)])].filter((name) => canonicalJson(values[name]) !== canonicalJson(original.parameters[name])),
      );
      const reused = rerunReuse(
        loaded.compiled,
        { nodes: originalVersion?.compiled.dag.nodes ?? [], states: original.node_states ?? {} },
        { ...(request.from_node !== undefined ? { fromNode: request.from_node } : {}), changedParams },
      );
      const approval = approvalForManualRun(loaded.compiled.triggers, config.triggers.defaultApprovalTimeoutMs, userId);
      const fromNode = request.from_node ?? null;
      const edited = request.node_input !== undefined;
      const { row } = await launch({
        loaded: edited ? { ...loaded, compiled: withNodeInput(loaded.compiled, fromNode!, request.node_input!) } : loaded,
        parameters: values,
        trigger: {
          type: 'rerun',
          retryOf: original.id,
          fromNode,
          ...(edited ? { nodeInputEdited: true } : {}),
          userId,
          ...viaKey,
          ...(approval ? { approval: approval.record } : {}),
        },
        retryOf: original.id,
        reused,
        createdBy: userId,
        approval: approval?.wait,
        requestId: actor?.requestId,
        audit: { actor, after: { workflowId, version: loaded.compiled.version, trigger: 'rerun', retryOf: original.id, fromNode, nodeInputEdited: edited } },
        priority: original.priority,
      });
      return present(row);
    },

    async listDeadLetters(organizationId, query) {
      for (const [name, value] of [['workflow_id', query.workflow_id], ['run_id', query.run_id]] as const) {
        if (value !== undefined && !isUuid(value)) {
          throw new AppError('VALIDATION_ERROR', `invalid ${name}`, [{ path: `query.${name}`, problem: 'must be a UUID' }]);
        }
      }
      const rows = await listDeadLetters(db, organizationId, {
        workflowId: query.workflow_id,
        runId: query.run_id,
        queue: query.queue,
        status: query.status,
        after: cursorAfter(query.cursor),
        limit: query.limit + 1,
      });
      return toPage(rows, query.limit, (r) => ({ sort: new Date(r.created_at).toISOString(), id: r.id }));
    },

    async replayDeadLetter(organizationId, id, caller, actor) {
      await admission.admit(organizationId);
      const { userId, viaKey } = await requesterOf(organizationId, caller, actor);
      const letter = await findDeadLetter(db, organizationId, id);
      if (!letter) throw notFound('dead letter');
      if (letter.status === 'replayed') throw new AppError('INVALID_STATE', `dead letter was already replayed (run ${letter.replay_run_id})`);
      const original = await findRunById(db, organizationId, letter.run_id);
      if (!original) throw new AppError('INVALID_STATE', 'the run of this dead letter no longer exists');
      if (OPEN.includes(original.status)) throw new AppError('INVALID_STATE', 'the run of this dead letter is still running');
      const loaded = await loadRunnable(organizationId, letter.workflow_id, letter.workflow_version);
      const approval = approvalForManualRun(loaded.compiled.triggers, config.triggers.defaultApprovalTimeoutMs, userId);
      const { row } = await launch({
        loaded,
        parameters: original.parameters,
        trigger: { type: 'dead_letter_replay', deadLetterId: letter.id, retryOf: original.id, userId, ...viaKey, ...(approval ? { approval: approval.record } : {}) },
        retryOf: original.id,
        reused: completedStates(original),
        createdBy: userId,
        approval: approval?.wait,
        priority: original.priority,
      });
      const deadLetter = await markDeadLetterReplayed(db, organizationId, letter.id, row.id);
      return { deadLetter, run: await present(row) };
    },

    async flowState(organizationId, workflowId) {
      // Null for an unknown id and for another organization's workflow alike.
      const loaded = await loadWorkflowVersion(db, organizationId, workflowId);
      if (!loaded) throw notFound('workflow');
      const gate = await executions.flowGate(workflowId);
      return { workflow_id: workflowId, flow: loaded.compiled.flow ?? null, groups: gate?.groups ?? [] };
    },

    async getDeadLetter(organizationId, id) {
      const letter = await findDeadLetter(db, organizationId, id);
      if (!letter) throw notFound('dead letter');
      return letter;
    },

    async deleteDeadLetter(organizationId, id) {
      if (!(await deleteDeadLetter(db, organizationId, id))) throw notFound('dead letter');
    },

    listCircuitBreakers: (organizationId) => listCircuitBreakers(db, organizationId),

    async resetCircuitBreaker(organizationId, tool, scope) {
      const row = await resetCircuitBreaker(db, organizationId, tool, scope);
      if (!row) throw notFound('circuit breaker');
      return row;
    },
  };
}
