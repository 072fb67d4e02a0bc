import { ApplicationFailure, isCancellation } from '@temporalio/workflow';
import type { NodeState } from '../../lib/dag/model';
import type { EvalContext, RunInput } from '../../lib/runs/types';
import { executeTool, runActivities, toNodeFailure, type ExecEnv, type NodeFailure, type NodeOutcome } from './execute';
import { readsOfValue, toolConfigOf, type Reads, type RunGraph, type TypedNode } from './graph';
import { strategyFor } from './strategy';

/** What the error strategies need of the interpreter (interpreter.ts): its state and the moves it makes on a node. */
export interface FailureHost {
  readonly env: ExecEnv;
  readonly input: RunInput;
  readonly graph: RunGraph;
  readonly states: Record<string, NodeState>;
  recordError(id: string, failure: NodeFailure): void;
  finish(id: string, status: NodeState['status'], output?: unknown, attempts?: number): void;
  fail(id: string, failure: NodeFailure, via?: NodeState['via']): void;
  /** fail_fast: the run stops, every other node is cancelled. */
  failFast(): void;
  /** The context a handler evaluates (node outputs it reads, within the handler's budget). */
  handlerContext(id: string, reads: Reads | undefined, sentToServer?: boolean): Promise<EvalContext>;
}

/** The node's error strategy (docs/runs.md#error-handling), after its attempts are spent. */
export async function handleFailure(host: FailureHost, node: TypedNode, failure: NodeFailure): Promise<void> {
  host.recordError(node.id, failure);
  const strategy = strategyFor(host.input.compiled.errorHandling, node.id);
  try {
    switch (strategy.name) {
      case 'fallback': {
        if (!strategy.handler) break;
        const outcome = await runFallback(host, node, strategy.handler, strategy.handlerConfig);
        const state = host.states[node.id]!;
        state.error = { code: failure.code, message: failure.message };
        state.via = 'fallback';
        host.finish(node.id, 'completed', outcome.output, failure.attempts);
        return;
      }
      case 'dead_letter_queue': {
        const toolConfig = node.type === 'tool' ? node.config : null;
        await runActivities.runRecordDeadLetter({
          organizationId: host.env.organizationId,
          workflowId: host.env.workflowId,
          workflowVersion: host.env.workflowVersion,
          runId: host.env.runId,
          nodeId: node.id,
          queue: strategy.deadLetter.queue,
          retentionMs: strategy.deadLetter.retentionMs,
          tool: toolConfig?.tool ?? null,
          config: toolConfig ? toolConfig.config : node.def.config,
          inputs: toolConfig?.inputs ?? [],
          context: await host.handlerContext(node.id, host.graph.reads.get(node.id)),
          error: { code: failure.code, message: failure.message },
          attempts: failure.attempts,
        });
        host.fail(node.id, failure, 'dead_letter');
        return;
      }
      case 'fail_fast':
        host.fail(node.id, failure);
        host.failFast();
        return;
      default:
        break;
    }
  } catch (err) {
    if (isCancellation(err)) {
      host.finish(node.id, 'cancelled');
      return;
    }
    const handlerFailure = toNodeFailure(err, 1);
    host.recordError(node.id, { ...handlerFailure, message: `${strategy.name}: ${handlerFailure.message}` });
  }
  host.fail(node.id, failure);
}

/** A tool run as a local activity: its input stays in the worker (RunOptions.localTools). */
export function isLocalTool(input: RunInput, tool: string): boolean {
  return (input.options.localTools ?? []).includes(tool);
}

/** A fallback handler: a node of the graph (its output, or its definition run now) or a tool with the same inputs. */
async function runFallback(host: FailureHost, node: TypedNode, handler: string, handlerConfig: Record<string, unknown> | undefined): Promise<NodeOutcome> {
  const retry = strategyFor(undefined, handler);
  const handlerNode = host.graph.nodes.get(handler);
  if (handlerNode) {
    const state = host.states[handler]!;
    if (state.status === 'completed') return { output: state.output, attempts: 1 };
    if (handlerNode.type !== 'tool') {
      throw ApplicationFailure.nonRetryable(`fallback node ${handler} has not completed`, 'FALLBACK_UNAVAILABLE');
    }
    const context = await host.handlerContext(handler, host.graph.reads.get(handler), !isLocalTool(host.input, handlerNode.config.tool));
    return executeTool(host.env, `${node.id}.fallback`, handlerNode.config.tool, handlerNode.config, handlerNode.def.retryPolicy, retry, context);
  }
  const inputs = node.type === 'tool' ? node.config.inputs : [];
  const config = toolConfigOf({ config: { tool: handler, config: handlerConfig ?? {}, inputs } });
  const context = await host.handlerContext(node.id, readsOfValue(host.graph, { config: handlerConfig, inputs }), !isLocalTool(host.input, handler));
  return executeTool(host.env, `${node.id}.fallback`, handler, config, undefined, retry, context);
}
