import {
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  isCancellation,
  setHandler,
} from '@temporalio/workflow';
import type { CompiledWorkflow, NodeState, RunError, RunViewStatus } from '../../lib/dag/model';
import { buildGraph, GraphError, readsOfValue, toolConfigOf, type Reads, type RunGraph, type TypedNode } from './graph';
import {
  bookkeepingActivities,
  evalActivities,
  executeSubworkflow,
  executeTool,
  runActivities,
  toNodeFailure,
  type ExecEnv,
  type NodeFailure,
  type NodeOutcome,
} from './execute';
import { cancelledAttempts } from './cancellation';
import {
  askRunPatchesCurrent,
  HANDLER_PAYLOAD_BUDGET_PATCH,
  JOIN_TOLERATES_PATCH,
  LOOP_RESULTS_BUDGET_PATCH,
  PAYLOAD_BUDGET_PATCH,
  READABLE_ACTIVITIES_PATCH,
  runPatched,
  SUBSECOND_RETRY_PATCH,
  SUBWORKFLOW_BUDGET_PATCH,
  SUBWORKFLOW_RUNS_PATCH,
} from './patches';
import { executeLoop } from './loop';
import { untakenBranch } from './scheduler/branch';
import { decide, type SchedulerAction } from './scheduler/decide';
import { chooseSpills, jsonBytes, MIN_SPILL_BYTES, planPass, type PassInput, type SpillKey } from './scheduler/spill';
import { PayloadBudget } from './payloads';
import { failuresFailingTheRun } from './scheduler/outcome';
import { isOpen } from './scheduler/state';
import { mayRetryWithinSecond, strategyFor } from './strategy';
import { awaitApproval, type ApprovalGate } from '../triggers/approval';
import { isValueRef, ownsRunRecord, type EvalContext, type RunInput, type RunStateView, type RunSummary, type ValueRef } from '../../lib/runs/types';

/**
 * The DAG interpreter: one workflow execution per run (workflow id = run id). Node semantics (lib/dag/model.ts,
 * docs/runs.md):
 * - a node runs when every predecessor finished and at least one completed; when none completed it is skipped;
 *   a predecessor that failed (unhandled) skips it too, so nothing runs on top of a failure;
 * - a condition runs its trueBranch or falseBranch; the other is skipped (and skipping propagates);
 * - a parallel node starts its branches' nodes and finishes by its join strategy; losers are cancelled;
 * - tool / loop / subworkflow nodes run as activities / batches / child workflows.
 * The scheduling decisions are a pure function of the graph and the node states (scheduler/decide.ts, unit-tested
 * without Temporal); this class applies them and does the I/O, woken by node completions. Replay is deterministic
 * and the structure stays easy to version with patched().
 */

export const runStateQuery = defineQuery<RunStateView>('runState');



/** A handler's context: at most this fraction of the budget (16 KiB of 1 MiB), as any number may start at once. */
const HANDLER_CONTEXT_SHARE = 64;

/** Nodes whose state changes each time the scheduler wakes up. */
class Interpreter {
  private readonly states: Record<string, NodeState> = {};
  private readonly errors: RunError[] = [];
  private readonly nodeScopes = new Map<string, CancellationScope>();
  private readonly startedAt = new Date().toISOString();
  private status: RunViewStatus = 'pending';
  private inFlight = 0;
  private dirty = false;
  private failFast = false;
  private execScope: CancellationScope | null = null;
  private readonly env: ExecEnv;
  /** Failures a met join no longer needed leave the run `completed` (JOIN_TOLERATES_PATCH). */
  private readonly joinsTolerateFailures: boolean;
  /** Whether this execution keeps a workflow_runs row (top-level runs, and children since SUBWORKFLOW_RUNS_PATCH). */
  private readonly ownsRecord: boolean;
  /** Runs started with a payload budget keep what they assemble within it (payloads.ts); older runs have none. */
  private readonly payloads: PayloadBudget | null;
  /** Parameters stored to keep contexts within the budget: their references travel instead. */
  private readonly storedParams = new Map<string, ValueRef>();
  /** Error handlers' contexts are held to a share of the budget (HANDLER_PAYLOAD_BUDGET_PATCH). */
  private readonly handlerBudget: boolean;
  /** The handlers' stores, one after another (handlerContext). */
  private handlerStores: Promise<void> = Promise.resolve();
  /** Exit outputs that could not be stored to keep the results within the budget: in node states only. */
  private readonly resultsLeftOut = new Set<string>();

  constructor(
    private readonly input: RunInput,
    private readonly graph: RunGraph,
    patchesCurrent: boolean,
  ) {
    const { compiled } = input;
    this.env = {
      patchesCurrent,
      organizationId: input.organizationId,
      workflowId: compiled.workflowId,
      workflowVersion: compiled.version,
      runId: input.runId,
      parameters: input.parameters,
      errorHandling: compiled.errorHandling,
      options: input.options,
      depth: input.depth,
      chainDepth: typeof input.trigger.chainDepth === 'number' ? input.trigger.chainDepth : 0,
    };
    this.ownsRecord = ownsRunRecord(input);
    const budget = input.options.payloadBudgetBytes;
    if (budget && runPatched(this.env, PAYLOAD_BUDGET_PATCH)) this.env.payloadBudgetBytes = budget;
    this.payloads = this.env.payloadBudgetBytes ? new PayloadBudget(this.env.payloadBudgetBytes, this.env) : null;
    // Asked in the first workflow task, only by runs that own a row and start subworkflows (other runs record no marker).
    this.env.childRuns = this.ownsRecord && startsSubworkflows(graph) && runPatched(this.env, SUBWORKFLOW_RUNS_PATCH);
    this.env.subworkflowBudget = Boolean(this.env.payloadBudgetBytes) && this.env.childRuns && runPatched(this.env, SUBWORKFLOW_BUDGET_PATCH);
    this.env.loopResultsBudget = Boolean(this.env.payloadBudgetBytes) && hasToolLoops(graph) && runPatched(this.env, LOOP_RESULTS_BUDGET_PATCH);
    this.handlerBudget = this.payloads !== null && hasErrorHandlers(compiled.errorHandling, graph) && runPatched(this.env, HANDLER_PAYLOAD_BUDGET_PATCH);
    this.env.subsecondRetries = mayRetryWithinSecond(compiled.errorHandling, compiled.dag.nodes) && runPatched(this.env, SUBSECOND_RETRY_PATCH);
    this.env.readableActivities = runPatched(this.env, READABLE_ACTIVITIES_PATCH);
    for (const id of graph.order) {
      const reused = input.reused?.[id];
      this.states[id] =
        reused?.status === 'completed'
          ? { ...reused, via: 'reused' }
          : { status: 'pending', attempts: 0, startedAt: null, finishedAt: null, output: null, error: null };
    }
    this.joinsTolerateFailures =
      [...graph.nodes.values()].some((n) => n.type === 'parallel' && n.config.joinStrategy !== 'wait_all') && runPatched(this.env, JOIN_TOLERATES_PATCH);
    // A reused condition still decides which branch is skipped.
    for (const id of graph.order) {
      const node = graph.nodes.get(id)!;
      if (node.type === 'condition' && this.states[id]!.status === 'completed') this.applyBranch(node);
    }
  }

  view(): RunStateView {
    return { status: this.status, nodeStates: this.states, errors: this.errors, startedAt: this.startedAt };
  }

  async run(): Promise<RunSummary> {
    // Manual runs whose trigger requires approval wait here, still `pending`, for the decision (triggers/approval.ts).
    if (this.input.approval) {
      const gate = await awaitApproval(this.input.runId, this.input.approval);
      if (!gate.proceed) return this.closeWithoutStarting(gate);
    }
    if (this.ownsRecord) {
      // Not cancellable: a run cancelled right away still goes through the normal ending below and is stored.
      await CancellationScope.nonCancellable(() => bookkeepingActivities(this.env).runMarkRunning({ runId: this.input.runId }));
    }
    this.status = 'running';
    let cancellation: unknown = null;
    const execScope = new CancellationScope();
    this.execScope = execScope;
    try {
      await execScope.run(() => this.drive());
    } catch (err) {
      if (!isCancellation(err)) throw err;
      if (!this.failFast) {
        cancellation = err;
        // Shown by the runState query until the cancelled nodes have settled (docs/runs.md#cancellation).
        this.status = 'cancelling';
      }
    }
    // Let cancelled nodes settle (their activities acknowledge the cancellation), whatever happened above.
    await CancellationScope.nonCancellable(() => condition(() => this.inFlight === 0));
    const now = new Date().toISOString();
    for (const state of Object.values(this.states)) {
      if (state.status === 'pending' || state.status === 'running') {
        state.status = cancellation || this.failFast ? 'cancelled' : 'skipped';
        state.finishedAt = now;
      }
    }
    const status = cancellation ? 'cancelled' : this.failFast || this.failsTheRun() ? 'failed' : 'completed';
    this.status = status;
    // A cancelled execution returns no result; its results are stored by the run row's local activity only.
    if (this.payloads && !cancellation) await CancellationScope.nonCancellable(() => this.fitResults(this.payloads!));
    const results: Record<string, unknown> = {};
    for (const id of this.graph.exitPoints) {
      const state = this.states[id];
      if (state?.status === 'completed' && !this.resultsLeftOut.has(id)) results[id] = state.output;
    }
    const summary: RunSummary = { runId: this.input.runId, status, results, errors: this.errors };
    if (this.ownsRecord) await CancellationScope.nonCancellable(() => this.persist(summary, now));
    if (cancellation) throw cancellation;
    if (status === 'failed') {
      const first = this.errors[0];
      throw ApplicationFailure.create({
        type: first?.code ?? 'RUN_FAILED',
        message: first ? `node ${first.node}: ${first.message}` : 'run failed',
        nonRetryable: true,
        details: [summary],
      });
    }
    return summary;
  }

  /** Whether the node failures fail the run: unhandled ones do, except those a met join no longer needed. */
  private failsTheRun(): boolean {
    const unhandled = Object.values(this.states).some((s) => s.status === 'failed' && s.via !== 'dead_letter');
    if (!unhandled) return false;
    // Every unhandled failure may be one a met join tolerates: new executions complete, older histories failed.
    return !this.joinsTolerateFailures || failuresFailingTheRun(this.graph, this.states).length > 0;
  }

  /** A run refused before its first node (rejected, approval timed out, cancelled while waiting): every node cancelled. */
  private async closeWithoutStarting(gate: Extract<ApprovalGate, { proceed: false }>): Promise<RunSummary> {
    const now = new Date().toISOString();
    for (const state of Object.values(this.states)) Object.assign(state, { status: 'cancelled', finishedAt: now });
    this.status = gate.status;
    this.errors.push({ node: null, code: gate.code, message: gate.message, attempt: 0, time: now });
    const summary: RunSummary = { runId: this.input.runId, status: this.status, results: {}, errors: this.errors };
    if (this.ownsRecord) await CancellationScope.nonCancellable(() => this.persist(summary, now));
    if (gate.cancellation) throw gate.cancellation;
    if (gate.status === 'failed') throw ApplicationFailure.create({ type: gate.code, message: gate.message, nonRetryable: true, details: [summary] });
    return summary;
  }

  /**
   * The run's results (its exit nodes' outputs) within the budget: the largest are stored first. Those that cannot be
   * stored are left out of the results (their node states keep them), and the run's errors say so.
   */
  private async fitResults(payloads: PayloadBudget): Promise<void> {
    const exits = this.graph.exitPoints.filter((id) => this.states[id]?.status === 'completed' && !isValueRef(this.states[id].output));
    const candidates = exits.map((id) => ({ key: id, bytes: payloads.sizeOf(this.states[id]!.output), uses: 1 }));
    const total = candidates.reduce((sum, c) => sum + c.bytes, 0);
    const chosen = chooseSpills(candidates, total, payloads.bytes);
    if (chosen.length === 0) return;
    try {
      const refs = await payloads.store(chosen.map((id) => ({ name: id, value: this.states[id]!.output })));
      chosen.forEach((id, i) => (this.states[id]!.output = refs[i]));
    } catch (err) {
      // Sent as they are, they would fail the execution past Temporal's limit after the run row said otherwise.
      for (const id of chosen) this.resultsLeftOut.add(id);
      const cause = toNodeFailure(err, 1);
      this.errors.push({
        node: null,
        code: 'VALUE_STORE_FAILED',
        message: `storing the run's large results failed (${cause.message}); ${chosen.join(', ')} are in node_states only`,
        attempt: 0,
        time: new Date().toISOString(),
      });
    }
  }

  /**
   * The final state, written once; node states in chunks first when they are large: ~1 MB chunks, or, with a payload
   * budget, budget-sized chunks whenever the states and the results together exceed the budget.
   */
  private async persist(summary: RunSummary, completedAt: string): Promise<void> {
    const budgeted = this.payloads !== null;
    const chunkBytes = this.payloads?.bytes ?? 1_000_000;
    // Runs without a budget measured characters, and must replay with the same chunks.
    const measure = budgeted ? jsonBytes : (value: unknown) => JSON.stringify(value).length;
    let total = budgeted ? jsonBytes(summary.results) + jsonBytes(summary.errors) : 0;
    const sizes = new Map<string, number>();
    for (const [id, state] of Object.entries(this.states)) {
      const size = measure(state);
      sizes.set(id, size);
      total += size;
    }
    let nodeStates: Record<string, NodeState> | undefined = this.states;
    if (total > chunkBytes) {
      let chunk: Record<string, NodeState> = {};
      let chunkSize = 0;
      for (const [id, state] of Object.entries(this.states)) {
        if (budgeted && chunkSize > 0 && chunkSize + sizes.get(id)! > chunkBytes) {
          await runActivities.runSaveNodeStates({ runId: this.input.runId, nodeStates: chunk });
          chunk = {};
          chunkSize = 0;
        }
        chunk[id] = state;
        chunkSize += sizes.get(id)!;
        if (!budgeted && chunkSize >= chunkBytes) {
          await runActivities.runSaveNodeStates({ runId: this.input.runId, nodeStates: chunk });
          chunk = {};
          chunkSize = 0;
        }
      }
      if (chunkSize > 0) await runActivities.runSaveNodeStates({ runId: this.input.runId, nodeStates: chunk });
      nodeStates = undefined;
    }
    await bookkeepingActivities(this.env).runFinish({
      runId: summary.runId,
      status: summary.status,
      nodeStates,
      results: summary.results,
      errors: summary.errors,
      completedAt,
    });
  }

  private async drive(): Promise<void> {
    for (;;) {
      this.dirty = false;
      let actions = this.failFast ? null : this.decideNow();
      if (actions && this.payloads && actions.some((a) => a.kind === 'start' || a.kind === 'completeJoin')) {
        const plan = planPass(this.passInput(actions, this.payloads));
        if (plan.spills.length > 0 && (await this.spill(plan.spills, actions))) continue;
        const held = new Set(plan.holdJoins);
        if (plan.holdStarts || held.size > 0) {
          actions = actions.filter((a) => !(a.kind === 'start' && plan.holdStarts) && !(a.kind === 'completeJoin' && held.has(a.node)));
        }
      }
      this.schedule(actions);
      if (this.inFlight === 0 && !this.graph.order.some((id) => this.isOpen(id))) return;
      if (this.inFlight === 0 && !this.dirty) {
        // Nothing runs and nothing can start: only possible with a graph the API should have refused.
        for (const id of this.graph.order) {
          if (this.isOpen(id)) this.fail(id, { code: 'UNREACHABLE', message: 'node can never start', attempts: 0 });
        }
        return;
      }
      await condition(() => this.dirty);
    }
  }

  private isOpen(id: string): boolean {
    return isOpen(this.states[id]!.status);
  }

  private decideNow(): SchedulerAction[] {
    return decide(this.graph, this.states, { inFlight: this.inFlight, maxConcurrentNodes: this.input.options.maxConcurrentNodes });
  }

  /** Applies what the scheduler decided (scheduler/decide.ts), in its order: skips, joins, node starts. */
  private schedule(actions: SchedulerAction[] | null): void {
    if (this.failFast || !actions) {
      // Nothing starts after a fail_fast failure. Dirty, so that drive() waits for its cancelled scope instead of
      // reporting the nodes left open as UNREACHABLE.
      this.dirty = true;
      return;
    }
    for (const action of actions) this.apply(action);
    if (actions.length > 0) this.dirty = true;
  }

  /** The pass as scheduler/spill.ts plans it: the joins completing and the contexts of the nodes starting. */
  private passInput(actions: SchedulerAction[], payloads: PayloadBudget): PassInput {
    // Only regular activities send their input through the server and keep it in history; local ones (conditions,
    // loop items, rendering, the tools in `localTools`: budgeted runs started after LOCAL_ACTIVITIES_PATCH) do not.
    const local = new Set(this.input.options.localTools ?? []);
    const contextsOf = (id: string): PassInput['starts'][number]['contexts'] => {
      const node = this.graph.nodes.get(id)!;
      if (node.type === 'tool') return local.has(node.config.tool) ? [] : [{ reads: this.graph.reads.get(id), copies: 1 }];
      // A budgeted subworkflow node's context goes to the activity preparing the child's parameters.
      if (node.type === 'subworkflow') return this.env.subworkflowBudget ? [{ reads: this.readsOf(node), copies: 1 }] : [];
      if (node.type !== 'loop') return [];
      // A batch child's input carries the template's context; with a regular tool or a budgeted subworkflow, so does
      // each item's activity, `concurrency` of them scheduled at once.
      const { template, concurrency } = node.config;
      const regularItems =
        template.type === 'tool' ? !local.has(toolConfigOf({ config: template.config }).tool) : Boolean(this.env.subworkflowBudget);
      return [{ reads: this.readsOf(node), copies: 1 + (regularItems ? concurrency : 0) }];
    };
    return {
      ...this.passValues(payloads),
      joins: actions.flatMap((a) => (a.kind === 'completeJoin' ? [{ node: a.node, output: a.output }] : [])),
      starts: actions.flatMap((a) => (a.kind === 'start' ? [{ node: a.node, contexts: contextsOf(a.node) }] : [])),
      budget: payloads.bytes,
    };
  }

  /** The values a plan reads: outputs, parameters, what is stored already, and their sizes. */
  private passValues(payloads: PayloadBudget): Pick<PassInput, 'outputOf' | 'params' | 'storedParams' | 'isStored' | 'bytesOf'> {
    return {
      outputOf: (id) => (this.states[id]?.status === 'completed' ? this.states[id].output : undefined),
      params: this.input.parameters,
      storedParams: this.storedParams,
      isStored: isValueRef,
      bytesOf: (value) => payloads.sizeOf(value),
    };
  }

  /**
   * Stores the outputs and parameters the pass would otherwise carry past the budget: a stored output replaces the
   * node's output (shown by reference, like a large one), a stored parameter travels by reference in contexts. When
   * they cannot be stored (object storage down past the activity's retries), the pass's nodes fail instead. False
   * when nothing was left to store.
   */
  private async spill(planned: SpillKey[], actions: SchedulerAction[]): Promise<boolean> {
    try {
      return await this.storeSpills(planned);
    } catch (err) {
      if (isCancellation(err)) throw err;
      const cause = toNodeFailure(err, 1);
      const failure: NodeFailure = { code: 'VALUE_STORE_FAILED', message: `storing its large inputs failed: ${cause.message}`, attempts: 0 };
      for (const action of actions) {
        if ((action.kind === 'start' || action.kind === 'completeJoin') && this.isOpen(action.node)) {
          this.recordError(action.node, failure);
          this.fail(action.node, failure);
        }
      }
      return true;
    }
  }

  /** Stores the planned outputs and parameters not stored yet; false when none was left. Throws when the store fails. */
  private async storeSpills(planned: SpillKey[]): Promise<boolean> {
    // Only completed nodes' inline outputs and parameters not stored yet: each spill makes progress.
    const keys = planned.filter((key) =>
      'node' in key
        ? this.states[key.node]?.status === 'completed' && !isValueRef(this.states[key.node]!.output)
        : !this.storedParams.has(key.param),
    );
    if (keys.length === 0) return false;
    const entries = keys.map((key) =>
      'node' in key
        ? { name: key.node, value: this.states[key.node]!.output }
        : { name: `params.${key.param}`, value: this.input.parameters[key.param] },
    );
    const refs = await this.payloads!.store(entries);
    keys.forEach((key, i) => {
      if ('node' in key) this.states[key.node]!.output = refs[i];
      else this.storedParams.set(key.param, refs[i]!);
    });
    return true;
  }

  /**
   * The context of an error handler's activity (a fallback tool, a dead letter), its large values stored first. Handlers
   * start outside the passes the planner sees, any number in one workflow task (every node of a pass may fail at
   * once), so each context is held to a small share of the budget. A local tool's context, never sent through the
   * server and so never counted, could otherwise reach its dead letter whole: 12 outputs of 200 kB were a 2.4 MB
   * activity input, past the server's 2 MB. Throws when the store fails: the handler then fails.
   */
  private async handlerContext(id: string, reads: Reads | undefined, sentToServer = true): Promise<EvalContext> {
    const payloads = this.payloads;
    if (payloads && this.handlerBudget && sentToServer) {
      // One handler's stores at a time, each planned after the previous ones have replaced what they stored: handlers
      // failing together neither store a value twice nor send more than one store group in a workflow task.
      const stored = this.handlerStores.then(async () => {
        // The planner's own accounting, for one context, one copy, within the handler's share.
        const share = Math.max(MIN_SPILL_BYTES, Math.floor(payloads.bytes / HANDLER_CONTEXT_SHARE));
        const { spills } = planPass({ ...this.passValues(payloads), joins: [], starts: [{ node: id, contexts: [{ reads, copies: 1 }] }], budget: share });
        if (spills.length > 0) await this.storeSpills(spills);
      });
      this.handlerStores = stored.catch(() => undefined);
      await stored;
    }
    return this.contextFor(id, reads);
  }

  private apply(action: SchedulerAction): void {
    switch (action.kind) {
      case 'skip':
        this.finish(action.node, 'skipped');
        return;
      case 'openParallel':
        Object.assign(this.states[action.node]!, { status: 'running', startedAt: new Date().toISOString(), attempts: 1 });
        return;
      case 'start':
        this.start(this.graph.nodes.get(action.node)!);
        return;
      case 'completeJoin':
        for (const member of action.cancel) this.cancelNode(member);
        this.finish(action.node, 'completed', action.output);
        return;
      case 'failJoin':
        // An unmet join is a failure of its own, next to those of its branches (docs/runs.md#joins).
        this.recordError(action.node, action.failure);
        this.fail(action.node, action.failure);
        return;
    }
  }

  /** Cancels one node: a pending node directly, a running one through its cancellation scope. */
  private cancelNode(id: string): void {
    const state = this.states[id]!;
    if (state.status === 'pending') this.finish(id, 'cancelled');
    else if (state.status === 'running') this.nodeScopes.get(id)?.cancel();
  }

  private finish(id: string, status: NodeState['status'], output?: unknown, attempts?: number): void {
    const state = this.states[id]!;
    state.status = status;
    state.finishedAt = new Date().toISOString();
    if (output !== undefined) state.output = output;
    if (attempts !== undefined) state.attempts = attempts;
    this.dirty = true;
  }

  private fail(id: string, failure: NodeFailure, via?: NodeState['via']): void {
    const state = this.states[id]!;
    state.error = { code: failure.code, message: failure.message };
    if (via) state.via = via;
    this.finish(id, 'failed', undefined, Math.max(failure.attempts, state.attempts));
  }

  private recordError(id: string, failure: NodeFailure): void {
    this.errors.push({
      node: id,
      code: failure.code,
      message: failure.message,
      attempt: failure.attempts,
      time: new Date().toISOString(),
    });
  }

  /** What a node may read: only the outputs and parameters its config mentions, so activity inputs stay small. */
  private contextFor(id: string, reads: Reads | undefined = this.graph.reads.get(id)): EvalContext {
    const nodes: Record<string, unknown> = {};
    for (const ref of reads?.nodes ?? []) {
      const s = this.states[ref];
      if (s?.status === 'completed') nodes[ref] = s.output;
    }
    const all = this.input.parameters;
    const names = !reads || reads.params === 'all' ? null : reads.params.filter((name) => name in all);
    if (this.storedParams.size === 0) {
      return { params: names ? Object.fromEntries(names.map((name) => [name, all[name]])) : all, nodes };
    }
    const params = Object.fromEntries((names ?? Object.keys(all)).map((name) => [name, this.storedParams.get(name) ?? all[name]]));
    return { params, nodes };
  }

  private start(node: TypedNode): void {
    const state = this.states[node.id]!;
    Object.assign(state, { status: 'running', startedAt: new Date().toISOString(), attempts: 0 });
    this.inFlight++;
    void this.runNode(node).finally(() => {
      this.inFlight--;
      this.nodeScopes.delete(node.id);
      this.dirty = true;
    });
  }

  private async runNode(node: TypedNode): Promise<void> {
    const scope = new CancellationScope();
    this.nodeScopes.set(node.id, scope);
    try {
      // The error strategy runs inside the node's scope too, so cancelling the node also stops its fallback.
      await scope.run(async () => {
        let outcome: NodeOutcome;
        try {
          outcome = await this.executeNode(node);
        } catch (err) {
          if (isCancellation(err)) throw err;
          await this.handleFailure(node, toNodeFailure(err, 1));
          return;
        }
        this.finish(node.id, 'completed', outcome.output, outcome.attempts);
        if (node.type === 'condition') this.applyBranch(node);
      });
    } catch (err) {
      if (!isCancellation(err)) throw err;
      // The attempt that was running (reported by the tool activity), else the one this start began.
      this.finish(node.id, 'cancelled', undefined, cancelledAttempts(err) ?? Math.max(1, this.states[node.id]!.attempts));
    }
  }

  /**
   * What a node's activities read: a loop's template's, and with the subworkflow budget every parameter for a
   * subworkflow that passes them on (inherit_context), so they travel as the budget has them (stored by reference).
   */
  private readsOf(node: TypedNode): Reads | undefined {
    const reads = node.type === 'loop' ? this.graph.templateReads.get(node.id) : this.graph.reads.get(node.id);
    if (!this.env.subworkflowBudget) return reads;
    const subworkflow = node.type === 'subworkflow' ? node.config : node.type === 'loop' && node.config.template.type === 'subworkflow' ? node.config.template.config : null;
    const inherits = Boolean(subworkflow && (subworkflow as { inherit_context?: boolean }).inherit_context);
    return inherits ? { nodes: reads?.nodes ?? [], params: 'all' } : reads;
  }

  private async executeNode(node: TypedNode): Promise<NodeOutcome> {
    const context = this.contextFor(node.id, node.type === 'subworkflow' ? this.readsOf(node) : undefined);
    const strategy = strategyFor(this.input.compiled.errorHandling, node.id);
    switch (node.type) {
      case 'tool':
        return executeTool(this.env, node.id, node.config.tool, node.config, node.def.retryPolicy, strategy, context);
      case 'condition': {
        const { result } = await evalActivities.runEvaluateCondition({
          organizationId: this.env.organizationId,
          expression: node.config.expression,
          context,
        });
        return { output: { result, branch: result ? (node.config.trueBranch ?? null) : (node.config.falseBranch ?? null) }, attempts: 1 };
      }
      case 'loop':
        return executeLoop(
          {
            env: this.env,
            loopNodeId: node.id,
            config: node.config,
            strategy,
            itemsContext: context,
            context: this.contextFor(node.id, this.readsOf(node)),
          },
          // Shown by the runState query while the loop runs (no command: replay is unaffected).
          (items) => {
            this.states[node.id]!.items = items;
          },
        );
      case 'subworkflow':
        return executeSubworkflow(this.env, node.id, node.config, context, (childRunId) => {
          this.states[node.id]!.child_run_id = childRunId;
        });
      case 'parallel':
        throw ApplicationFailure.nonRetryable('parallel nodes are joined by the scheduler', 'INTERNAL');
    }
  }

  private applyBranch(node: Extract<TypedNode, { type: 'condition' }>): void {
    const skipped = untakenBranch(node, this.states);
    if (skipped) this.finish(skipped, 'skipped');
  }

  /** The node's error strategy, after its attempts are spent. */
  private async handleFailure(node: TypedNode, failure: NodeFailure): Promise<void> {
    this.recordError(node.id, failure);
    const strategy = strategyFor(this.input.compiled.errorHandling, node.id);
    try {
      switch (strategy.name) {
        case 'fallback': {
          if (!strategy.handler) break;
          const outcome = await this.runFallback(node, strategy.handler, strategy.handlerConfig);
          const state = this.states[node.id]!;
          state.error = { code: failure.code, message: failure.message };
          state.via = 'fallback';
          this.finish(node.id, 'completed', outcome.output, failure.attempts);
          return;
        }
        case 'dead_letter_queue': {
          const toolConfig = node.type === 'tool' ? node.config : null;
          await runActivities.runRecordDeadLetter({
            organizationId: this.env.organizationId,
            workflowId: this.env.workflowId,
            workflowVersion: this.env.workflowVersion,
            runId: this.env.runId,
            nodeId: node.id,
            queue: strategy.deadLetter.queue,
            retentionMs: strategy.deadLetter.retentionMs,
            tool: toolConfig?.tool ?? null,
            config: toolConfig ? toolConfig.config : node.def.config,
            inputs: toolConfig?.inputs ?? [],
            context: await this.handlerContext(node.id, this.graph.reads.get(node.id)),
            error: { code: failure.code, message: failure.message },
            attempts: failure.attempts,
          });
          this.fail(node.id, failure, 'dead_letter');
          return;
        }
        case 'fail_fast':
          this.fail(node.id, failure);
          this.failFast = true;
          this.execScope?.cancel();
          return;
        default:
          break;
      }
    } catch (err) {
      if (isCancellation(err)) {
        this.finish(node.id, 'cancelled');
        return;
      }
      const handlerFailure = toNodeFailure(err, 1);
      this.recordError(node.id, { ...handlerFailure, message: `${strategy.name}: ${handlerFailure.message}` });
    }
    this.fail(node.id, failure);
  }

  /** A tool run as a local activity: its input stays in the worker (RunOptions.localTools). */
  private isLocalTool(tool: string): boolean {
    return (this.input.options.localTools ?? []).includes(tool);
  }

  /** A fallback handler: a node of the graph (its output, or its definition run now) or a tool with the same inputs. */
  private async runFallback(node: TypedNode, handler: string, handlerConfig: Record<string, unknown> | undefined): Promise<NodeOutcome> {
    const retry = strategyFor(undefined, handler);
    const handlerNode = this.graph.nodes.get(handler);
    if (handlerNode) {
      const state = this.states[handler]!;
      if (state.status === 'completed') return { output: state.output, attempts: 1 };
      if (handlerNode.type !== 'tool') {
        throw ApplicationFailure.nonRetryable(`fallback node ${handler} has not completed`, 'FALLBACK_UNAVAILABLE');
      }
      const context = await this.handlerContext(handler, this.graph.reads.get(handler), !this.isLocalTool(handlerNode.config.tool));
      return executeTool(this.env, `${node.id}.fallback`, handlerNode.config.tool, handlerNode.config, handlerNode.def.retryPolicy, retry, context);
    }
    const inputs = node.type === 'tool' ? node.config.inputs : [];
    const config = toolConfigOf({ config: { tool: handler, config: handlerConfig ?? {}, inputs } });
    const context = await this.handlerContext(node.id, readsOfValue(this.graph, { config: handlerConfig, inputs }), !this.isLocalTool(handler));
    return executeTool(this.env, `${node.id}.fallback`, handler, config, undefined, retry, context);
  }
}

/** Some node fails over to a fallback or a dead letter. */
function hasErrorHandlers(errorHandling: CompiledWorkflow['errorHandling'], graph: RunGraph): boolean {
  return graph.order.some((id) => {
    const name = strategyFor(errorHandling, id).name;
    return name === 'fallback' || name === 'dead_letter_queue';
  });
}

/** Loops whose template is a tool. */
function hasToolLoops(graph: RunGraph): boolean {
  return [...graph.nodes.values()].some((n) => n.type === 'loop' && n.config.template.type === 'tool');
}

/** Subworkflow nodes, and loops whose template is a subworkflow. */
function startsSubworkflows(graph: RunGraph): boolean {
  return [...graph.nodes.values()].some((n) => n.type === 'subworkflow' || (n.type === 'loop' && n.config.template.type === 'subworkflow'));
}

export async function dagRunWorkflow(input: RunInput): Promise<RunSummary> {
  // Before anything else: the first thing an execution asks, in its first workflow task (patches.ts).
  const patchesCurrent = askRunPatchesCurrent();
  let graph: RunGraph;
  try {
    graph = buildGraph(input.compiled);
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    const now = new Date().toISOString();
    const errors: RunError[] = [{ node: null, code: 'INVALID_DEFINITION', message: err.message, attempt: 0, time: now }];
    if (ownsRunRecord(input)) {
      await bookkeepingActivities({ patchesCurrent }).runFinish({ runId: input.runId, status: 'failed', nodeStates: {}, results: {}, errors, completedAt: now });
    }
    throw ApplicationFailure.nonRetryable(err.message, 'INVALID_DEFINITION');
  }
  const interpreter = new Interpreter(input, graph, patchesCurrent);
  setHandler(runStateQuery, () => interpreter.view());
  return interpreter.run();
}
