import type { CompiledWorkflow } from '../../lib/dag/model';
import { toolConfigOf, type RunGraph, type ToolConfig } from './graph';
import { strategyFor } from './strategy';

/**
 * What a run's graph uses, asked once when its execution starts: each decides whether a patch is asked at all
 * (patches.ts), so runs that cannot need a code path record no marker for it.
 */

/** Some node fails over to a fallback or a dead letter. */
export function hasErrorHandlers(errorHandling: CompiledWorkflow['errorHandling'], graph: RunGraph): boolean {
  return graph.order.some((id) => {
    const name = strategyFor(errorHandling, id).name;
    return name === 'fallback' || name === 'dead_letter_queue';
  });
}

/** Loops whose template is a tool. */
export function hasToolLoops(graph: RunGraph): boolean {
  return [...graph.nodes.values()].some((n) => n.type === 'loop' && n.config.template.type === 'tool');
}

/** Subworkflow nodes, and loops or repeats whose template is a subworkflow. */
export function startsSubworkflows(graph: RunGraph): boolean {
  return [...graph.nodes.values()].some(
    (n) => n.type === 'subworkflow' || ((n.type === 'loop' || n.type === 'repeat') && n.config.template.type === 'subworkflow'),
  );
}

/**
 * Some tool call may wait for a turn under a rate limit on destinations: a call of a tool that is not local (the
 * organization's limits apply to its destination, and may be declared at any time), or one whose node declares a
 * limit. Tool nodes, loop and repeat templates, and fallback handlers named by tool.
 */
export function mayWaitForTurns(errorHandling: CompiledWorkflow['errorHandling'], graph: RunGraph, localTools: readonly string[]): boolean {
  const mayWait = (config: ToolConfig): boolean => config.rate_limit !== undefined || !localTools.includes(config.tool);
  // A template the interpreter cannot read fails its node when it runs; here it counts as one that may wait.
  const templateMayWait = (config: Record<string, unknown>): boolean => {
    try {
      return mayWait(toolConfigOf({ config }));
    } catch {
      return true;
    }
  };
  const nodes = [...graph.nodes.values()];
  if (nodes.some((n) => n.type === 'tool' && mayWait(n.config))) return true;
  if (nodes.some((n) => (n.type === 'loop' || n.type === 'repeat') && n.config.template.type === 'tool' && templateMayWait(n.config.template.config))) return true;
  // A fallback handler is a tool (called with its handler_config) or a node of the graph (counted above).
  return graph.order.some((id) => {
    const strategy = strategyFor(errorHandling, id);
    return strategy.name === 'fallback' && strategy.handler !== undefined && !graph.nodes.has(strategy.handler) && !localTools.includes(strategy.handler);
  });
}
