import { isDeepStrictEqual } from 'node:util';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from '../deps';
import { finishRun, insertChildRun, markRunRunning, mergeRunNodeStates } from '../../domain/runs/queries';
import { purgeExpiredDeadLetters, upsertDeadLetter } from '../../domain/runs/failureQueries';
import { loadWorkflowVersion } from '../../domain/workflows/queries';
import type { CompiledWorkflow, NodeState, ParameterDecl, RunError, RunStatus } from '../../lib/dag/model';
import { REFERENCE } from '../../lib/dag/model';
// Conditions and switches are CEL with or without a `${...}` around them, at save and at run time alike.
import { unwrapTemplate } from '../../lib/dag/validation/conditions';
import type { EvalContext, RunTrigger, ValueRef } from '../../lib/runs/types';
import { buildScope, evaluateExpression, InputResolutionError, readReference, renderValue, toolInputFrom } from './resolve';
import { bytesAndMiB, loadValue, STORED_VALUE_LIMITS, StoredValueReader, storeIfLarge, storeLargestUntilWithin, storeValue, VALUE_TOO_LARGE } from './values';
import { checkParameters, type ParameterProblem } from '../../lib/runs/parameters';
import { runFinishedEvent } from '../events/runEvents';

/**
 * Activities of the interpreter other than tools. Bookkeeping is cheap on purpose: one write when the run starts,
 * one when it ends (live node states come from the `runState` query meanwhile).
 */
export function createRunActivities(deps: ActivityDeps) {
  const db = deps.db;
  return {
    async runMarkRunning(input: { runId: string; startedAt?: string }): Promise<void> {
      await markRunRunning(db, input.runId, input.startedAt);
    },

    /** A subworkflow child's run row (pending), written by the parent before it starts the child execution. */
    async runCreateChildRun(input: {
      runId: string;
      organizationId: string;
      workflowId: string;
      workflowVersion: number;
      parameters: Record<string, unknown>;
      trigger: RunTrigger;
      parentRunId: string;
      parentNodeId: string;
    }): Promise<void> {
      await insertChildRun(db, {
        id: input.runId,
        organizationId: input.organizationId,
        workflowId: input.workflowId,
        workflowVersion: input.workflowVersion,
        parameters: input.parameters,
        trigger: input.trigger,
        parentRunId: input.parentRunId,
        parentNodeId: input.parentNodeId,
      });
    },

    /** Large runs send their node states in chunks before `runFinish` (each payload stays under Temporal's 2 MB). */
    async runSaveNodeStates(input: { runId: string; nodeStates: Record<string, NodeState> }): Promise<void> {
      await mergeRunNodeStates(db, input.runId, input.nodeStates);
    },

    async runFinish(input: {
      runId: string;
      status: RunStatus;
      /** absent when already saved in chunks */
      nodeStates?: Record<string, NodeState>;
      results: Record<string, unknown>;
      errors: RunError[];
      completedAt: string;
    }): Promise<void> {
      // The run.completed / run.failed event commits with the final state, in its statement (outbox; docs/events.md).
      await finishRun(db, input.runId, input, runFinishedEvent(input));
    },

    async runEvaluateCondition(input: { organizationId: string; expression: string; context: EvalContext }): Promise<{ result: boolean }> {
      return guarded(async () => {
      const scope = await buildScope(deps, input.organizationId, input.context);
      const value = await evaluateExpression(unwrapTemplate(input.expression), scope);
      if (typeof value !== 'boolean') {
        throw nonRetryable('EXPRESSION_ERROR', `condition must yield a boolean, got ${typeName(value)}`);
      }
      return { result: value };
      });
    },

    /**
     * A switch's choice: the index of the first case whose `equals` is its `value` (JSON equality), or, without a
     * `value`, whose `when` is true; null when none matches.
     */
    async runEvaluateSwitch(input: {
      organizationId: string;
      value?: string;
      cases: ({ equals: unknown } | { when: string })[];
      context: EvalContext;
    }): Promise<{ case: number | null }> {
      return guarded(async () => {
        const scope = await buildScope(deps, input.organizationId, input.context);
        if (input.value !== undefined) {
          const value = await evaluateExpression(unwrapTemplate(input.value), scope);
          const index = input.cases.findIndex((c) => 'equals' in c && isDeepStrictEqual(c.equals, value));
          return { case: index < 0 ? null : index };
        }
        for (const [index, c] of input.cases.entries()) {
          if (!('when' in c)) continue;
          const verdict = await evaluateExpression(unwrapTemplate(c.when), scope);
          if (typeof verdict !== 'boolean') {
            throw nonRetryable('EXPRESSION_ERROR', `switch case ${index} must yield a boolean, got ${typeName(verdict)}`);
          }
          if (verdict) return { case: index };
        }
        return { case: null };
      });
    },

    /** The loop's items: inline when small, else stored and read back by slices in the batch children. */
    async runResolveLoopItems(input: {
      organizationId: string;
      runId: string;
      nodeId: string;
      items: string;
      context: EvalContext;
      maxItems: number;
      largeOutputBytes: number;
    }): Promise<{ count: number; items?: unknown[]; ref?: ValueRef }> {
      return guarded(async () => {
      // One reader for the scope and the items: the stored-value limits hold for the activity as a whole.
      const reader = new StoredValueReader(deps, input.organizationId);
      const scope = await buildScope(deps, input.organizationId, input.context, reader);
      const text = input.items.trim();
      const value = REFERENCE.test(text)
        ? readReference(scope, text)
        : text.startsWith('${')
          ? await renderValue(text, scope)
          : await evaluateExpression(text, scope);
      // Resolving never shortens a list: too many items are refused before any of them is read.
      if (Array.isArray(value)) checkLoopSize(value.length, input.maxItems);
      const resolved = await reader.resolve(value);
      if (!Array.isArray(resolved)) throw nonRetryable('LOOP_ITEMS_NOT_LIST', `loop items must be a list, got ${typeName(resolved)}`);
      checkLoopSize(resolved.length, input.maxItems);
      // Stored items are read back whole by every batch (runLoadLoopItems): refused here, before any item runs.
      const bytes = Buffer.byteLength(JSON.stringify(resolved), 'utf8');
      if (bytes > STORED_VALUE_LIMITS.valueBytes) {
        throw nonRetryable(
          VALUE_TOO_LARGE,
          `loop items are ${bytes} bytes serialized, more than the ${bytesAndMiB(STORED_VALUE_LIMITS.valueBytes)} a node may read of one stored value`,
        );
      }
      const stored = await storeIfLarge(deps, input.organizationId, input.runId, `${input.nodeId}.items`, resolved, input.largeOutputBytes);
      return Array.isArray(stored) ? { count: resolved.length, items: stored } : { count: resolved.length, ref: stored as ValueRef };
      });
    },

    async runLoadLoopItems(input: { organizationId: string; ref: ValueRef; start: number; end: number }): Promise<unknown[]> {
      return guarded(async () => {
        const all = (await loadValue(deps, input.organizationId, input.ref)) as unknown[];
        return all.slice(input.start, input.end);
      });
    },

    async runStoreLoopBatch(input: {
      organizationId: string;
      runId: string;
      nodeId: string;
      batch: number;
      outputs: unknown[];
    }): Promise<ValueRef> {
      return storeValue(deps, input.organizationId, input.runId, `${input.nodeId}.batch-${input.batch}`, input.outputs);
    },

    async runStoreValue(input: { organizationId: string; runId: string; name: string; value: unknown }): Promise<ValueRef> {
      return storeValue(deps, input.organizationId, input.runId, input.name, input.value);
    },

    /**
     * One stored list from lists stored in parts, in order (a loop's item outputs too large for one activity input
     * under the run's payload budget); `wrap`: stored as a loop's output, `{ results, count }`.
     */
    async runJoinStoredLists(input: { organizationId: string; runId: string; name: string; parts: ValueRef[]; wrap: boolean }): Promise<ValueRef> {
      return guarded(async () => {
        const list = await concatStoredLists(deps, input.organizationId, input.parts);
        return storeValue(deps, input.organizationId, input.runId, input.name, input.wrap ? { results: list, count: list.length } : list);
      });
    },

    /** Concatenates the batches' outputs in item order; the loop's output, inline or by reference. */
    async runCombineLoopBatches(input: {
      organizationId: string;
      runId: string;
      nodeId: string;
      batches: ValueRef[];
      largeOutputBytes: number;
      /** a loop with continue_on_error: its failed items, in index order */
      failed?: { index: number; code: string; message: string }[];
    }): Promise<unknown> {
      return guarded(async () => {
        const outputs = await concatStoredLists(deps, input.organizationId, input.batches);
        const value = { results: outputs, count: outputs.length, ...(input.failed ? { failed: input.failed } : {}) };
        return storeIfLarge(deps, input.organizationId, input.runId, input.nodeId, value, input.largeOutputBytes);
      });
    },

    async runRenderValue(input: { organizationId: string; value: unknown; context: EvalContext }): Promise<unknown> {
      return guarded(async () => renderValue(input.value, await buildScope(deps, input.organizationId, input.context)));
    },

    /**
     * A subworkflow child's parameters, for runs with a payload budget: the node's `inputs` rendered over the
     * inherited parameters, checked against the child's declarations here, where the values are whole, and then the
     * largest stored (`<node>.params.<name>` in the parent run's folder) until the rest fit in `inlineBytes`. The
     * child reads stored parameters by reference, as it reads its own stored ones: a loop of children fed a large
     * output no longer sends a copy per child through the server (docs/runs.md#the-payload-budget).
     */
    async runPrepareSubworkflowParameters(input: {
      organizationId: string;
      runId: string;
      nodeId: string;
      declared: ParameterDecl[];
      inputs: unknown;
      /** Parameters of the run passed on (inherit_context), found in the context. */
      inherit: string[];
      context: EvalContext;
      inlineBytes: number;
    }): Promise<{ values: Record<string, unknown>; problems: ParameterProblem[] }> {
      return guarded(async () => {
        const reader = new StoredValueReader(deps, input.organizationId);
        // The run's own stored parameters are read whole: inherited ones are checked like rendered ones.
        const params = (await reader.resolve(input.context.params)) as Record<string, unknown>;
        const rendered = await renderValue(input.inputs, await buildScope(deps, input.organizationId, { ...input.context, params }, reader));
        const inherited = Object.fromEntries(input.inherit.filter((name) => name in params).map((name) => [name, params[name]]));
        const checked = checkParameters(input.declared, { ...inherited, ...((rendered ?? {}) as Record<string, unknown>) });
        if (checked.problems.length > 0) return checked;
        const values = await storeLargestUntilWithin(deps, input.organizationId, input.runId, `${input.nodeId}.params`, checked.values, input.inlineBytes);
        return { values, problems: [] };
      });
    },

    async runLoadSubworkflow(input: { organizationId: string; workflowId: string }): Promise<CompiledWorkflow> {
      const loaded = await loadWorkflowVersion(db, input.organizationId, input.workflowId);
      if (!loaded) throw nonRetryable('SUBWORKFLOW_NOT_FOUND', `workflow ${input.workflowId} not found in this organization`);
      return loaded.compiled;
    },

    async runRecordDeadLetter(input: {
      organizationId: string;
      workflowId: string;
      workflowVersion: number;
      runId: string;
      nodeId: string;
      queue: string;
      retentionMs: number;
      tool: string | null;
      config: Record<string, unknown>;
      inputs: { name?: string; from: string }[];
      context: EvalContext;
      error: { code: string; message: string };
      attempts: number;
    }): Promise<{ id: string }> {
      let stored: unknown;
      try {
        const scope = await buildScope(deps, input.organizationId, input.context);
        stored = input.tool ? await toolInputFrom(input.config, input.inputs, scope) : { config: input.config };
      } catch (err) {
        stored = { config: input.config, resolutionError: (err as Error).message };
      }
      return upsertDeadLetter(db, {
        organizationId: input.organizationId,
        workflowId: input.workflowId,
        workflowVersion: input.workflowVersion,
        runId: input.runId,
        nodeId: input.nodeId,
        queue: input.queue,
        tool: input.tool,
        input: stored,
        error: input.error,
        attempts: input.attempts,
        expiresAt: new Date(Date.now() + input.retentionMs),
      });
    },

    async runPurgeDeadLetters(): Promise<{ deleted: number }> {
      return { deleted: await purgeExpiredDeadLetters(db) };
    },
  };
}

function checkLoopSize(items: number, maxItems: number): void {
  if (items > maxItems) throw nonRetryable('LOOP_TOO_LARGE', `loop has ${items} items, more than maxItems ${maxItems}`);
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;
}

/** Errors that retrying cannot fix; activities of the interpreter throw these for bad definitions or values. */
function nonRetryable(code: string, message: string): Error {
  return ApplicationFailure.create({ type: code, message, nonRetryable: true });
}

/**
 * Stored lists, concatenated in order: a loop's batches, or the parts of a batch. They hold the outputs of items that
 * already ran (as many as maxItems allows): each is held to the limit of one stored value, their sum is not. A loop
 * whose combined output no node reads (or only its download link) must still complete after its items ran; a node
 * that reads it later meets the limits then.
 */
async function concatStoredLists(deps: ActivityDeps, organizationId: string, refs: ValueRef[]): Promise<unknown[]> {
  const reader = new StoredValueReader(deps, organizationId, {
    ...STORED_VALUE_LIMITS,
    totalBytes: Number.POSITIVE_INFINITY,
    distinctValues: Math.max(STORED_VALUE_LIMITS.distinctValues, refs.length),
    references: Math.max(STORED_VALUE_LIMITS.references, refs.length),
  });
  const list: unknown[] = [];
  for (const ref of refs) list.push(...((await reader.load(ref)) as unknown[]));
  return list;
}

/** Expression and reference problems are the definition's or the data's: not retryable. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof InputResolutionError) throw nonRetryable(err.code, err.message);
    throw err;
  }
}

export type RunActivities = ReturnType<typeof createRunActivities>;
