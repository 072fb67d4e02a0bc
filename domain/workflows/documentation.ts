import { z } from 'zod';
import { dagSchema, edgeSchema, nodeSchema, NODE_ID, NODE_TYPES, type NodeType } from '../../lib/dag/model';
import { NODE_CONFIG_SCHEMAS } from '../../lib/dag/nodeConfig';
import { NODE_TYPE_SPECS } from '../../lib/dag/nodeTypes';

/**
 * The workflow graph as the OpenAPI document shows it (lib/documentedAs.ts): the model's own schemas
 * (lib/dag/model.ts), with a node's `config` typed by its `type`. Validation does not use these: it checks the node
 * first and then its config by type (lib/dag/nodeConfig.ts), so that every problem is named at its own path.
 */

/** One node schema per type, in NODE_TYPES order, from the node-type registry (lib/dag/nodeTypes.ts). */
const nodeOf = <T extends NodeType>(type: T) =>
  nodeSchema.extend({ type: z.literal(type), config: NODE_CONFIG_SCHEMAS[type] }).meta(NODE_TYPE_SPECS[type].docs);

const [first, ...others] = NODE_TYPES.map(nodeOf);

export const nodeDocSchema = z
  .discriminatedUnion('type', [first!, ...others])
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
