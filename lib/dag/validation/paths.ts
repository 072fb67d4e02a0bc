import { echo } from '../../echo';

/** Paths of the graph's parts in problems, under `dagPath` (`dag` for the API shape, `` for the definition document). */
export interface DagPaths {
  /** `<dagPath>.<suffix>`, or `<suffix>` at the root */
  at(suffix: string): string;
  /** a node by id: `<dagPath>.nodes.<id>` */
  node(id: string): string;
}

export function dagPaths(dagPath: string): DagPaths {
  const at = (suffix: string): string => (dagPath ? `${dagPath}.${suffix}` : suffix);
  return { at, node: (id) => at(`nodes.${echo(id)}`) };
}
