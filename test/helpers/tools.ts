import { randomUUID } from 'node:crypto';
import { getTool } from '../../activities/tools/registry';
import type { ToolContext } from '../../activities/tools/types';
import type { TestApi } from './stack';

/**
 * A tool's context as the worker builds it, with the clients and configuration of a test API, so a tool can be
 * executed in-process with that API's settings (allow-lists, limits) against the real services.
 */
export function toolContext(api: TestApi, organizationId: string, options: { nodeId?: string; attempt?: number } = {}): ToolContext {
  const runId = randomUUID();
  const nodeId = options.nodeId ?? 'node';
  return {
    organizationId,
    runId,
    nodeId,
    attempt: options.attempt ?? 1,
    idempotencyKey: `${runId}:${nodeId}`,
    deps: { ...api.deps, config: api.config },
    signal: new AbortController().signal,
    heartbeat: () => undefined,
  };
}

/** Executes a registered tool with a context of `api`. */
export function runTool(id: string, input: Record<string, unknown>, context: ToolContext): Promise<unknown> {
  const tool = getTool(id);
  if (!tool) throw new Error(`no tool ${id}`);
  return tool.execute(input, context);
}
