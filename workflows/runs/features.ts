import type { CompiledWorkflow } from '../../lib/dag/model';
import type { RunGraph } from './graph';
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
