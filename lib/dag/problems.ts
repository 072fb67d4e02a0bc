import { echo } from '../echo';

/** One validation problem: `path` names the node and field (`dag.nodes.fetch.config.tool`), `problem` says why. */
export interface Problem {
  path: string;
  problem: string;
}

/** Path of a node in problems: by id when it has a usable one (cut to a prefix when long), else by index. */
export function nodePath(dagPath: string, id: unknown, index: number): string {
  const base = dagPath ? `${dagPath}.nodes` : 'nodes';
  return typeof id === 'string' && id ? `${base}.${echo(id)}` : `${base}[${index}]`;
}
