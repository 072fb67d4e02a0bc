import { ApplicationFailure, CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import type { NodeState, RunError, RunViewStatus } from '../../lib/dag/model';
import type { Reads, RunGraph, TypedNode } from './graph';
import {
  bookkeepingActivities,
  evalActivities,
  executeSubworkflow,
  executeTool,
  toNodeFailure,
  type ExecEnv,
  type NodeFailure,
  type NodeOutcome,
} from './execute';
import { cancelledAttempts } from './cancellation';
import { executeLoop } from './loop';
import { executeRepeat } from './repeat';
import { executeSwitch } from './switch';
import { executeWait } from './waitNode';
import { executeWaitForEvent, type EventWaiters } from './eventWait';
import { executeApproval, type ApprovalWaiters } from './approvalNode';
import { executeRespond } from './respondNode';
import { handleFailure, type FailureHost } from './failures';
import { fitResults, persistRun } from './finalState';
import { setUpRun, type RunSetup } from './runSetup';
import { contextOf, passInput, passValues, readsOf, storeSpills, type SpillHost } from './spills';
import { untakenBranches } from './scheduler/branch';
import { decide, type SchedulerAction } from './scheduler/decide';
import { MIN_SPILL_BYTES, planPass, type SpillKey } from './scheduler/spill';
import { PayloadBudget } from './payloads';
import { failuresFailingTheRun } from './scheduler/outcome';
import { isOpen } from './scheduler/state';
import { strategyFor } from './strategy';
import { showTurnWait } from './turns';
import { awaitApproval, type ApprovalGate } from '../triggers/approval';
import { awaitFlowAdmission, releaseFlow, type FlowWaitView } from './flowWait';
import { type EvalContext, type RunInput, type RunStateView, type RunSummary, type ValueRef } from '../../lib/runs/types';
import type { EventArrived } from '../../lib/runs/eventWait';
import type { ApprovalDecided } from '../../lib/runs/approvalNode';

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

/** A handler's context: at most this fraction of the budget (16 KiB of 1 MiB), as any number may start at once. */
const HANDLER_CONTEXT_SHARE = 64;

/** Nodes whose state changes each time the scheduler wakes up. */
export class Interpreter {
  private readonly states: Record<string, NodeState> = {};
  private readonly errors: RunError[] = [];
  private readonly nodeScopes = new Map<string, CancellationScope>();
  /** wait_for_event nodes waiting now: the dispatcher's signal reaches them here (eventArrived). */
  private readonly eventWaiters: EventWaiters = new Map();
  /** approval nodes waiting now: the API's signal of a final decision reaches them here (approvalDecided). */
  private readonly approvalWaiters: ApprovalWaiters = new Map();
  private readonly startedAt = new Date().toISOString();
  private status: RunViewStatus = 'pending';
  /** Why a run held by its flow gate waits, as the gate told it (flowWait.ts). */
  private flowWait: FlowWaitView | null = null;
  private inFlight = 0;
  private dirty = false;
  private failFast = false;
  private execScope: CancellationScope | null = null;
  private readonly env: ExecEnv;
  /** What the first workflow task decided for this execution: its patches, its row, its budgets (runSetup.ts). */
  private readonly setup: RunSetup;
  /** Runs started with a payload budget keep what they assemble within it (payloads.ts); older runs have none. */
  private readonly payloads: PayloadBudget | null;
  /** Parameters stored to keep contexts within the budget: their references travel instead. */
  private readonly storedParams = new Map<string, ValueRef>();
  /** The handlers' stores, one after another (handlerContext). */
  private handlerStores: Promise<void> = Promise.resolve();
  /** Exit outputs that could not be stored to keep the results within the budget: in node states only. */
  private readonly resultsLeftOut = new Set<string>();
  /** The error strategies' view of this run (failures.ts). */
  private readonly failureHost: FailureHost;
  /** The payload budget's view of this run (spills.ts). */
  private readonly spillHost: SpillHost;

  constructor(
    private readonly input: RunInput,
    private readonly graph: RunGraph,
    patchesCurrent: boolean,
  ) {
    this.setup = setUpRun(input, graph, patchesCurrent);
    this.env = this.setup.env;
    this.payloads = this.setup.payloads;
    for (const id of graph.order) {
      const reused = input.reused?.[id];
      this.states[id] =
        reused?.status === 'completed'
          ? { ...reused, via: 'reused' }
          : { status: 'pending', attempts: 0, startedAt: null, finishedAt: null, output: null, error: null };
    }
    this.spillHost = { input, graph, env: this.env, states: this.states, storedParams: this.storedParams, payloads: this.payloads };
    this.failureHost = {
      env: this.env,
      input,
      graph,
      states: this.states,
      recordError: (id, failure) => this.recordError(id, failure),
      finish: (id, status, output, attempts) => this.finish(id, status, output, attempts),
      fail: (id, failure, via) => this.fail(id, failure, via),
      failFast: () => {
        this.failFast = true;
        this.execScope?.cancel();
      },
      handlerContext: (id, reads, sentToServer) => this.handlerContext(id, reads, sentToServer),
    };
    // A reused condition or switch still decides which branches are skipped.
    for (const id of graph.order) if (this.states[id]!.status === 'completed') this.applyBranch(graph.nodes.get(id)!);
  }

  /** The dispatcher's signal: the event for a node waiting for it; dropped when the node waits no more. */
  eventArrived(arrived: EventArrived): void {
    this.eventWaiters.get(arrived.nodeId)?.(arrived.event);
  }

  /** The API's signal: an approval's final outcome for the node waiting for it. */
  approvalDecided(decided: ApprovalDecided): void {
    this.approvalWaiters.get(decided.nodeId)?.(decided.outcome);
  }

  view(): RunStateView {
    return {
      status: this.status,
      nodeStates: this.states,
      errors: this.errors,
      startedAt: this.startedAt,
      ...(this.flowWait && this.status === 'pending' ? { flowWait: this.flowWait } : {}),
    };
  }

  async run(): Promise<RunSummary> {
    // Manual runs whose trigger requires approval wait here, still `pending`, for the decision (triggers/approval.ts).
    if (this.input.approval) {
      const gate = await awaitApproval(this.input.runId, this.input.approval);
      if (!gate.proceed) return this.closeWithoutStarting(gate);
    }
    const { flow } = this.input;
    if (!flow) return this.admitted();
    // Flow control (flowWait.ts): the run waits, still `pending`, for its workflow's gate; what it holds there is
    // given back however it ends.
    const { compiled } = this.input;
    const join = { organizationId: this.input.organizationId, workflowId: compiled.workflowId, workflowName: compiled.name, workflowVersion: compiled.version };
    const gate = await awaitFlowAdmission(join, flow, (wait) => void (this.flowWait = wait));
    if (!gate.proceed) return this.closeWithoutStarting(gate);
    try {
      return await this.admitted(gate.admittedAt);
    } finally {
      await releaseFlow(flow);
    }
  }

  /** The run past its gates (approval, flow control): its nodes run. `admittedAt`: when its flow gate let it start. */
  private async admitted(admittedAt?: string): Promise<RunSummary> {
    if (this.setup.ownsRecord) {
      // Not cancellable: a run cancelled right away still goes through the normal ending below and is stored.
      const marked = { runId: this.input.runId, ...(admittedAt ? { startedAt: admittedAt } : {}) };
      await CancellationScope.nonCancellable(() => bookkeepingActivities(this.env).runMarkRunning(marked));
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
    const { payloads } = this;
    if (payloads && !cancellation) {
      const leftOut = await CancellationScope.nonCancellable(() => fitResults(payloads, this.graph.exitPoints, this.states, this.errors));
      for (const id of leftOut) this.resultsLeftOut.add(id);
    }
    const results: Record<string, unknown> = {};
    for (const id of this.graph.exitPoints) {
      const state = this.states[id];
      if (state?.status === 'completed' && !this.resultsLeftOut.has(id)) results[id] = state.output;
    }
    const summary: RunSummary = { runId: this.input.runId, status, results, errors: this.errors };
    if (this.setup.ownsRecord) await CancellationScope.nonCancellable(() => persistRun(this.env, this.states, this.payloads, summary, now));
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
    return !this.setup.joinsTolerateFailures || failuresFailingTheRun(this.graph, this.states).length > 0;
  }

  /** A run refused before its first node (rejected, approval timed out, cancelled while waiting): every node cancelled. */
  private async closeWithoutStarting(gate: Extract<ApprovalGate, { proceed: false }>): Promise<RunSummary> {
    const now = new Date().toISOString();
    for (const state of Object.values(this.states)) Object.assign(state, { status: 'cancelled', finishedAt: now });
    this.status = gate.status;
    this.errors.push({ node: null, code: gate.code, message: gate.message, attempt: 0, time: now });
    const summary: RunSummary = { runId: this.input.runId, status: this.status, results: {}, errors: this.errors };
    if (this.setup.ownsRecord) await CancellationScope.nonCancellable(() => persistRun(this.env, this.states, this.payloads, summary, now));
    if (gate.cancellation) throw gate.cancellation;
    if (gate.status === 'failed') throw ApplicationFailure.create({ type: gate.code, message: gate.message, nonRetryable: true, details: [summary] });
    return summary;
  }

  private async drive(): Promise<void> {
    for (;;) {
      this.dirty = false;
      let actions = this.failFast ? null : this.decideNow();
      if (actions && this.payloads && actions.some((a) => a.kind === 'start' || a.kind === 'completeJoin')) {
        const plan = planPass(passInput(this.spillHost, actions, this.payloads));
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

  /**
   * Stores the outputs and parameters the pass would otherwise carry past the budget: a stored output replaces the
   * node's output (shown by reference, like a large one), a stored parameter travels by reference in contexts. When
   * they cannot be stored (object storage down past the activity's retries), the pass's nodes fail instead. False
   * when nothing was left to store.
   */
  private async spill(planned: SpillKey[], actions: SchedulerAction[]): Promise<boolean> {
    try {
      return await storeSpills(this.spillHost, planned);
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

  /**
   * The context of an error handler's activity (a fallback tool, a dead letter), its large values stored first. Handlers
   * start outside the passes the planner sees, any number in one workflow task (every node of a pass may fail at
   * once), so each context is held to a small share of the budget. A local tool's context, never sent through the
   * server and so never counted, could otherwise reach its dead letter whole: 12 outputs of 200 kB were a 2.4 MB
   * activity input, past the server's 2 MB. Throws when the store fails: the handler then fails.
   */
  private async handlerContext(id: string, reads: Reads | undefined, sentToServer = true): Promise<EvalContext> {
    const payloads = this.payloads;
    if (payloads && this.setup.handlerBudget && sentToServer) {
      // One handler's stores at a time, each planned after the previous ones have replaced what they stored: handlers
      // failing together neither store a value twice nor send more than one store group in a workflow task.
      const stored = this.handlerStores.then(async () => {
        // The planner's own accounting, for one context, one copy, within the handler's share.
        const share = Math.max(MIN_SPILL_BYTES, Math.floor(payloads.bytes / HANDLER_CONTEXT_SHARE));
        const { spills } = planPass({ ...passValues(this.spillHost, payloads), joins: [], starts: [{ node: id, contexts: [{ reads, copies: 1 }] }], budget: share });
        if (spills.length > 0) await storeSpills(this.spillHost, spills);
      });
      this.handlerStores = stored.catch(() => undefined);
      await stored;
    }
    return contextOf(this.spillHost, id, reads);
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
        if (this.setup.failedJoinsCancel) for (const member of action.cancel) this.cancelNode(member);
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
          await handleFailure(this.failureHost, node, toNodeFailure(err, 1));
          return;
        }
        this.finish(node.id, 'completed', outcome.output, outcome.attempts);
        this.applyBranch(node);
      });
    } catch (err) {
      if (!isCancellation(err)) throw err;
      // The attempt that was running (reported by the tool activity), else the one this start began.
      this.finish(node.id, 'cancelled', undefined, cancelledAttempts(err) ?? Math.max(1, this.states[node.id]!.attempts));
    }
  }

  /** One case per node type (NODE_TYPES): a type without one does not compile, as the function would lack a return. */
  private async executeNode(node: TypedNode): Promise<NodeOutcome> {
    const context = contextOf(this.spillHost, node.id, node.type === 'subworkflow' ? readsOf(this.spillHost, node) : undefined);
    const strategy = strategyFor(this.input.compiled.errorHandling, node.id);
    switch (node.type) {
      case 'tool':
        return executeTool(this.env, node.id, node.config.tool, node.config, node.def.retryPolicy, strategy, context, undefined, showTurnWait(this.states, node.id));
      case 'condition': {
        const { result } = await evalActivities.runEvaluateCondition({
          organizationId: this.env.organizationId,
          expression: node.config.expression,
          context,
        });
        return { output: { result, branch: result ? (node.config.trueBranch ?? null) : (node.config.falseBranch ?? null) }, attempts: 1 };
      }
      case 'switch':
        return executeSwitch(this.env, node.config, context);
      case 'wait':
        return executeWait(this.env, node.config, context, this.waitingOf(node.id));
      case 'wait_for_event':
        return executeWaitForEvent(this.env, node.id, node.config, context, this.eventWaiters, this.waitingOf(node.id));
      case 'approval':
        return executeApproval(this.env, node.id, node.config, context, this.approvalWaiters, this.waitingOf(node.id));
      case 'respond':
        return executeRespond(this.env, node.config, context);
      case 'loop':
        return executeLoop(
          {
            env: this.env,
            loopNodeId: node.id,
            config: node.config,
            strategy,
            itemsContext: context,
            context: contextOf(this.spillHost, node.id, readsOf(this.spillHost, node)),
          },
          // Shown by the runState query while the loop runs (no command: replay is unaffected).
          (items) => {
            this.states[node.id]!.items = items;
          },
        );
      case 'repeat':
        return executeRepeat(this.env, node.id, node.config, strategy, context);
      case 'subworkflow':
        return executeSubworkflow(this.env, node.id, node.config, context, (childRunId) => {
          this.states[node.id]!.child_run_id = childRunId;
        });
      case 'parallel':
        throw ApplicationFailure.nonRetryable('parallel nodes are joined by the scheduler', 'INTERNAL');
    }
  }

  /** A waiting node's state shows until when it waits (and an approval's id): runState shows it, no command. */
  private waitingOf(nodeId: string): (until: string, approvalId?: string) => void {
    return (until, approvalId) => Object.assign(this.states[nodeId]!, { waiting_until: until }, approvalId ? { approval_id: approvalId } : {});
  }

  private applyBranch(node: TypedNode): void {
    for (const skipped of untakenBranches(node, this.states)) this.finish(skipped, 'skipped');
  }
}
