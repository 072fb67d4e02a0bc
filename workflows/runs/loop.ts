import { ApplicationFailure, executeChild, isCancellation, sleep } from '@temporalio/workflow';
import type { LoopConfig } from './graph';
import { toolConfigOf } from './graph';
import {
  evalActivities,
  executeSubworkflow,
  executeTool,
  nodeError,
  runActivities,
  toNodeFailure,
  type ExecEnv,
  type NodeOutcome,
} from './execute';
import { askRunPatchesCurrent } from './patches';
import { PayloadBudget } from './payloads';
import { groupWithin, jsonBytes, MIN_SPILL_BYTES, utf8Bytes } from './scheduler/spill';
import { runSearchAttributes } from '../../lib/runs/searchAttributes';
import type { ResolvedStrategy } from './strategy';
import type { EvalContext, ValueRef } from '../../lib/runs/types';

/**
 * Loops. The template runs once per item with at most `concurrency` items in flight; outputs are collected in item
 * order as `{ results: [...], count }`. Small loops run inside the run's workflow; loops with more items than
 * `options.loopBatchSize` run in child workflows of that many items each, one batch after another, so no history
 * grows past a few thousand events (10,000 items at 500 per batch: 20 children of ~3,000 events, and ~100 events
 * in the parent) and no workflow holds more than `concurrency` pending activities.
 */

export interface LoopSpec {
  env: ExecEnv;
  loopNodeId: string;
  config: LoopConfig;
  strategy: ResolvedStrategy;
  /** params and outputs the template may read (only those: every item's input carries it); the iterator is added per item */
  context: EvalContext;
  /** what the `items` expression reads (used once, not passed to the batches) */
  itemsContext?: EvalContext;
}

export interface LoopBatchInput {
  spec: LoopSpec;
  batch: number;
  start: number;
  end: number;
  items?: unknown[];
  itemsRef?: ValueRef;
}

/** A loop of local tools under LOOP_RESULTS_BUDGET_PATCH: the share of the budget an item's inline output may take. */
function localItemOutputBytes(spec: LoopSpec): number | null {
  const { env, config } = spec;
  if (!env.loopResultsBudget || !env.payloadBudgetBytes || config.template.type !== 'tool') return null;
  if (!(env.options.localTools ?? []).includes(toolConfigOf({ config: config.template.config }).tool)) return null;
  // A wave of items in flight, each at most this, is half a budget; the loop ends its task at the other half.
  return Math.min(env.options.largeOutputBytes, Math.max(MIN_SPILL_BYTES, Math.floor(env.payloadBudgetBytes / (2 * config.concurrency))));
}

/** One item; a tool template stores outputs over `largeOutputBytes` itself. */
async function runItem(spec: LoopSpec, item: unknown, index: number, largeOutputBytes: number): Promise<unknown> {
  const { config, env, strategy } = spec;
  const itemId = `${spec.loopNodeId}[${index}]`;
  const context: EvalContext = { ...spec.context, iterator: { name: config.iterator, value: item, index } };
  try {
    return await runTemplate(env, itemId, config.template, strategy, context, largeOutputBytes);
  } catch (err) {
    if (isCancellation(err)) throw err;
    const failure = toNodeFailure(err, 1);
    throw nodeError({ ...failure, message: `item ${index}: ${failure.message}` });
  }
}

/** One run of a loop's or a repeat's template (a tool or subworkflow node without an id) as node `id`: its output. */
export async function runTemplate(
  env: ExecEnv,
  id: string,
  template: LoopConfig['template'],
  strategy: ResolvedStrategy,
  context: EvalContext,
  largeOutputBytes?: number,
): Promise<unknown> {
  let outcome: NodeOutcome;
  if (template.type === 'tool') {
    const toolConfig = toolConfigOf({ config: template.config });
    outcome = await executeTool(env, id, toolConfig.tool, toolConfig, template.retryPolicy, strategy, context, largeOutputBytes);
  } else {
    const sub = template.config as { workflow_id: string; inputs?: Record<string, unknown>; inherit_context?: boolean };
    outcome = await executeSubworkflow(env, id, { workflow_id: sub.workflow_id, inputs: sub.inputs ?? {}, inherit_context: sub.inherit_context ?? false }, context);
  }
  return outcome.output;
}

/** A loop's items: how many, and how many finished (the node's `items` in the run view while it runs). */
export type LoopProgressSink = (items: { total: number; done: number }) => void;

/** A failed item of a loop with continue_on_error: its index in the loop, and why. */
export interface FailedItem {
  index: number;
  code: string;
  message: string;
}

/**
 * Runs items with a concurrency limit; the first failure stops new items and fails the loop, unless the loop has
 * `continue_on_error`: then a failed item's result is null, it is listed in `failed`, and the others go on.
 */
export async function runLoopItems(
  spec: LoopSpec,
  items: unknown[],
  offset: number,
  itemDone?: () => void,
): Promise<{ outputs: unknown[]; failed: FailedItem[] }> {
  const outputs: unknown[] = new Array(items.length);
  const failed: FailedItem[] = [];
  let next = 0;
  let failure: unknown = null;
  // Local items' results travel in the workflow task's completion (LOOP_RESULTS_BUDGET_PATCH): past half a budget
  // of them, no lane starts an item until a timer has ended the task; the items in flight finish in it.
  const localShare = localItemOutputBytes(spec);
  const itemOutputBytes = localShare ?? spec.env.options.largeOutputBytes;
  const markerBytes = localShare === null ? null : Math.floor(spec.env.payloadBudgetBytes! / 2);
  let sinceTaskEnd = 0;
  let taskEnd: Promise<void> | null = null;
  const lane = async (): Promise<void> => {
    while (next < items.length && failure === null) {
      if (taskEnd) {
        await taskEnd;
        continue;
      }
      const i = next++;
      try {
        outputs[i] = await runItem(spec, items[i], offset + i, itemOutputBytes);
        itemDone?.();
        if (markerBytes !== null) {
          sinceTaskEnd += jsonBytes(outputs[i]);
          if (sinceTaskEnd >= markerBytes && !taskEnd) {
            const ended = sleep(1).then(() => {
              taskEnd = null;
              sinceTaskEnd = 0;
            });
            // Once a lane has failed, or the last item is done, no lane awaits this timer: its cancellation with
            // the run must not surface as an unhandled rejection. It is still created as before, so histories of
            // runs that started one after their last item replay unchanged.
            ended.catch(() => undefined);
            taskEnd = ended;
          }
        }
      } catch (err) {
        if (!spec.config.continue_on_error || isCancellation(err)) {
          failure ??= err;
          continue;
        }
        const { code, message } = toNodeFailure(err, 1);
        outputs[i] = null;
        failed.push({ index: offset + i, code, message });
        itemDone?.();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(spec.config.concurrency, items.length) }, lane));
  if (failure !== null) throw failure;
  failed.sort((a, b) => a.index - b.index);
  return { outputs, failed };
}

/** The loop's output: its results in item order and, with continue_on_error, the items that failed. */
const loopOutput = (spec: LoopSpec, results: unknown[], failed: FailedItem[]) =>
  spec.config.continue_on_error ? { results, count: results.length, failed } : { results, count: results.length };

export async function executeLoop(spec: LoopSpec, progress?: LoopProgressSink): Promise<NodeOutcome> {
  const { env } = spec;
  let resolved;
  try {
    resolved = await evalActivities.runResolveLoopItems({
      organizationId: env.organizationId,
      runId: env.runId,
      nodeId: spec.loopNodeId,
      items: spec.config.items,
      context: spec.itemsContext ?? spec.context,
      maxItems: spec.config.maxItems,
      largeOutputBytes: env.options.largeOutputBytes,
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    throw nodeError(toNodeFailure(err, 1));
  }
  const batchSize = env.options.loopBatchSize;
  const items = { total: resolved.count, done: 0 };
  progress?.({ ...items });
  if (resolved.items && resolved.count <= batchSize) {
    const { outputs: results, failed } = await runLoopItems(spec, resolved.items, 0, () => {
      items.done += 1;
      progress?.({ ...items });
    });
    const value = loopOutput(spec, results, failed);
    const text = JSON.stringify(value);
    const budget = env.payloadBudgetBytes;
    if (budget && utf8Bytes(text) > budget) {
      return { output: await storeInParts(env, spec.loopNodeId, results, budget, true), attempts: 1 };
    }
    const output =
      text.length > env.options.largeOutputBytes
        ? await runActivities.runStoreValue({
            organizationId: env.organizationId,
            runId: env.runId,
            name: spec.loopNodeId,
            value,
          })
        : value;
    return { output, attempts: 1 };
  }
  const batchSpec: LoopSpec = { ...spec, itemsContext: undefined };
  const refs: ValueRef[] = [];
  const failed: FailedItem[] = [];
  for (let batch = 0, start = 0; start < resolved.count; batch++, start += batchSize) {
    const end = Math.min(resolved.count, start + batchSize);
    const input: LoopBatchInput = {
      spec: batchSpec,
      batch,
      start,
      end,
      ...(resolved.items ? { items: resolved.items.slice(start, end) } : { itemsRef: resolved.ref }),
    };
    try {
      // Large loops count by batch: the items of a batch are done when its child workflow returns.
      const { failed: batchFailed, ...ref } = await executeChild(loopBatchWorkflow, {
          workflowId: `${env.runId}.${spec.loopNodeId}.batch-${batch}`,
          args: [input],
          typedSearchAttributes: runSearchAttributes({
            organizationId: env.organizationId,
            workflowId: env.workflowId,
            workflowVersion: env.workflowVersion,
            runKind: 'loop_batch',
            trigger: 'loop',
          }),
        });
      refs.push(ref);
      failed.push(...(batchFailed ?? []));
    } catch (err) {
      if (isCancellation(err)) throw err;
      throw nodeError(toNodeFailure(err, 1));
    }
    items.done = end;
    progress?.({ ...items });
  }
  const output = await runActivities.runCombineLoopBatches({
    organizationId: env.organizationId,
    runId: env.runId,
    nodeId: spec.loopNodeId,
    batches: refs,
    largeOutputBytes: env.options.largeOutputBytes,
    ...(spec.config.continue_on_error ? { failed } : {}),
  });
  return { output, attempts: 1 };
}

/**
 * Item outputs are each under the large-output threshold, but hundreds of them make one activity input past
 * Temporal's limits. Within the run's payload budget they go to storage in consecutive parts, each within the budget,
 * and one activity joins the parts into the one stored value (`name`) a batch or a loop's output always was, so
 * readers still find one object, not a reference per item. Runs without a budget send them in one input.
 */
async function storeInParts(env: ExecEnv, name: string, outputs: unknown[], budget: number, wrap: boolean): Promise<ValueRef> {
  const payloads = new PayloadBudget(budget, env);
  const groups = groupWithin(
    outputs.map((value) => ({ value, bytes: payloads.sizeOf(value) })),
    budget,
  );
  // A part's JSON is its items' plus a bracket at each end and a comma between two: measured once, by item.
  const parts = await payloads.store(
    groups.map((group, k) => ({
      name: `${name}.part-${k}`,
      value: group.map((item) => item.value),
      bytes: group.reduce((sum, item) => sum + item.bytes, 0) + group.length + 1,
    })),
  );
  return runActivities.runJoinStoredLists({ organizationId: env.organizationId, runId: env.runId, name, parts, wrap });
}

/**
 * One batch of a large loop: its items' outputs, in order, stored in object storage; with continue_on_error, the
 * items that failed travel beside the reference (`failed`, absent otherwise: older parents read a plain ValueRef).
 */
export async function loopBatchWorkflow(input: LoopBatchInput): Promise<ValueRef & { failed?: FailedItem[] }> {
  // Asked by the batch itself, first: its answer must come from its own history. Inherited from the parent, a batch
  // whose first task ran on a worker from before RUN_PATCHES_CURRENT (which asked its patches one by one) would not
  // replay on a newer worker.
  const spec = { ...input.spec, env: { ...input.spec.env, patchesCurrent: askRunPatchesCurrent() } };
  let items = input.items;
  if (!items) {
    if (!input.itemsRef) throw ApplicationFailure.nonRetryable('loop batch without items', 'LOOP_BATCH_INVALID');
    items = await evalActivities.runLoadLoopItems({
      organizationId: spec.env.organizationId,
      ref: input.itemsRef,
      start: input.start,
      end: input.end,
    });
  }
  const { outputs, failed } = await runLoopItems(spec, items, input.start);
  const budget = spec.env.payloadBudgetBytes;
  const ref =
    budget && jsonBytes(outputs) > budget
      ? await storeInParts(spec.env, `${spec.loopNodeId}.batch-${input.batch}`, outputs, budget, false)
      : await runActivities.runStoreLoopBatch({
          organizationId: spec.env.organizationId,
          runId: spec.env.runId,
          nodeId: spec.loopNodeId,
          batch: input.batch,
          outputs,
        });
  return failed.length ? { ...ref, failed } : ref;
}
