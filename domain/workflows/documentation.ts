import { z } from 'zod';
import {
  conditionConfigSchema,
  dagSchema,
  edgeSchema,
  loopConfigSchema,
  nodeSchema,
  NODE_ID,
  parallelConfigSchema,
  subworkflowConfigSchema,
  toolConfigSchema,
} from '../../lib/dag/model';

/**
 * The workflow graph as the OpenAPI document shows it (lib/documentedAs.ts): the model's own schemas
 * (lib/dag/model.ts), with a node's `config` typed by its `type`. Validation does not use these: it checks the node
 * first and then its config by type (lib/dag/nodeConfig.ts), so that every problem is named at its own path.
 */

const nodeOf = <T extends string>(type: T, config: z.ZodType, id: string, description: string) =>
  nodeSchema.extend({ type: z.literal(type), config }).meta({ id, description });

export const nodeDocSchema = z
  .discriminatedUnion('type', [
    nodeOf('tool', toolConfigSchema, 'ToolNode', 'Calls a registered tool'),
    nodeOf('condition', conditionConfigSchema, 'ConditionNode', 'Chooses a branch by a CEL expression'),
    nodeOf('parallel', parallelConfigSchema, 'ParallelNode', 'Starts branches together and joins them'),
    nodeOf('loop', loopConfigSchema, 'LoopNode', 'Runs a template node once per item of a list'),
    nodeOf('subworkflow', subworkflowConfigSchema, 'SubworkflowNode', 'Runs another workflow as a child run'),
  ])
  .meta({ id: 'Node', description: 'A node of the graph; `type` decides the shape of `config`' });

export const dagDocSchema = dagSchema
  .extend({ nodes: z.array(nodeDocSchema).min(1).max(2000) })
  .meta({
    id: 'Dag',
    description:
      'DirectedAcyclicGraph: nodes and edges; entryPoints and exitPoints are derived when absent (docs/workflows.md)',
  });

const nodeIds = z.array(z.string().regex(NODE_ID));

/** A stored graph: as it was accepted, with its edges and its entry and exit points filled in. */
export const compiledDagDocSchema = dagDocSchema
  .extend({ edges: z.array(edgeSchema), entryPoints: nodeIds, exitPoints: nodeIds })
  .meta({ id: 'CompiledDag', description: 'The graph as stored: entry and exit points derived when they were not given' });
