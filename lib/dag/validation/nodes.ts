import { nodeSchema, type NodeDef } from '../model';
import { parseNodeConfig, zodProblems, type TypedConfig } from '../nodeConfig';
import { nodePath, type Problem } from '../problems';
import { RESERVED_NAMES } from '../references';

export interface ParsedNodes {
  /** nodes whose shape is valid (their config may not be) */
  nodes: NodeDef[];
  nodeIds: Set<string>;
  /** ids that exist, even on invalid nodes, so edges and overrides naming them are not also "unknown" */
  mentionedIds: Set<string>;
  /** node id -> config parsed by the node's type, for nodes whose config is valid */
  configs: Map<string, TypedConfig>;
  problems: Problem[];
}

/** Node by node, so one bad node does not hide the others' problems. A duplicate id is reported once, not parsed. */
export function parseNodes(rawNodes: unknown[], dagPath: string): ParsedNodes {
  const result: ParsedNodes = { nodes: [], nodeIds: new Set(), mentionedIds: new Set(), configs: new Map(), problems: [] };
  rawNodes.forEach((raw, index) => {
    const id = (raw as { id?: unknown } | null)?.id;
    const path = nodePath(dagPath, id, index);
    if (typeof id === 'string') {
      if (result.mentionedIds.has(id)) {
        result.problems.push({ path: `${path}.id`, problem: `duplicate node id "${id}"` });
        return;
      }
      result.mentionedIds.add(id);
    }
    const parsed = nodeSchema.safeParse(raw);
    if (!parsed.success) {
      result.problems.push(...zodProblems(parsed.error, path, nodeSchema));
      return;
    }
    const node = parsed.data;
    result.problems.push(...reservedIdProblems(node.id, path));
    const typed = parseNodeConfig(node, path);
    if (!typed.ok) result.problems.push(...typed.problems);
    else result.configs.set(node.id, typed.value);
    result.nodes.push(node);
    result.nodeIds.add(node.id);
  });
  return result;
}

function reservedIdProblems(id: string, path: string): Problem[] {
  return RESERVED_NAMES.has(id) ? [{ path: `${path}.id`, problem: `"${id}" is reserved in expressions; choose another id` }] : [];
}
