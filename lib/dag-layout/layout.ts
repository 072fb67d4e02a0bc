/**
 * Layered ("Sugiyama-style") layout of a DAG, left to right: a node's layer is the length of the longest path that
 * reaches it, so every edge points rightwards; nodes within a layer are ordered by a few barycentre sweeps to cut
 * crossings. Pure and deterministic (same graph, same picture): no I/O, no randomness.
 */

export interface LayoutEdge {
  from: string;
  to: string;
}

export interface LayoutOptions {
  nodeWidth?: number;
  nodeHeight?: number;
  layerGap?: number;
  rowGap?: number;
  margin?: number;
  sweeps?: number;
}

export interface PlacedNode {
  id: string;
  layer: number;
  row: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RoutedEdge extends LayoutEdge {
  /** SVG path data: a cubic curve from the source's right side to the target's left side. */
  path: string;
}

export interface Layout {
  nodes: PlacedNode[];
  edges: RoutedEdge[];
  width: number;
  height: number;
}

export function layoutDag(nodeIds: string[], edges: LayoutEdge[], options: LayoutOptions = {}): Layout {
  const nodeWidth = options.nodeWidth ?? 230;
  const nodeHeight = options.nodeHeight ?? 72;
  const layerGap = options.layerGap ?? 72;
  const rowGap = options.rowGap ?? 28;
  const margin = options.margin ?? 24;
  const sweeps = options.sweeps ?? 4;

  const known = new Set(nodeIds);
  const seen = new Set<string>();
  const usable = edges.filter((e) => {
    const key = `${e.from}\u0000${e.to}`;
    if (!known.has(e.from) || !known.has(e.to) || e.from === e.to || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const preds = new Map(nodeIds.map((id) => [id, [] as string[]]));
  const succs = new Map(nodeIds.map((id) => [id, [] as string[]]));
  for (const e of usable) {
    succs.get(e.from)!.push(e.to);
    preds.get(e.to)!.push(e.from);
  }

  // Longest-path layering in topological order (Kahn). Nodes left over (only if the input had a cycle) go last.
  const layer = new Map<string, number>();
  const indegree = new Map(nodeIds.map((id) => [id, preds.get(id)!.length]));
  const queue = nodeIds.filter((id) => indegree.get(id) === 0);
  for (const id of queue) layer.set(id, 0);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    for (const next of succs.get(id)!) {
      layer.set(next, Math.max(layer.get(next) ?? 0, layer.get(id)! + 1));
      indegree.set(next, indegree.get(next)! - 1);
      if (indegree.get(next) === 0) queue.push(next);
    }
  }
  const deepest = Math.max(0, ...layer.values());
  for (const id of nodeIds) if (!queue.includes(id)) layer.set(id, deepest + 1);

  const layerCount = Math.max(0, ...layer.values()) + 1;
  const layers: string[][] = Array.from({ length: nodeIds.length ? layerCount : 0 }, () => []);
  for (const id of nodeIds) layers[layer.get(id)!]!.push(id);

  // Barycentre sweeps: order each layer by the mean position of its neighbours in the previous (then next) layer.
  const position = new Map<string, number>();
  const index = (): void => layers.forEach((ids) => ids.forEach((id, i) => position.set(id, i)));
  index();
  const reorder = (ids: string[], neighbours: (id: string) => string[]): void => {
    const key = new Map(
      ids.map((id, i) => {
        const around = neighbours(id).map((n) => position.get(n)!);
        return [id, around.length ? around.reduce((a, b) => a + b, 0) / around.length : i];
      }),
    );
    ids.sort((a, b) => key.get(a)! - key.get(b)! || position.get(a)! - position.get(b)!);
    ids.forEach((id, i) => position.set(id, i));
  };
  for (let s = 0; s < sweeps; s++) {
    for (let l = 1; l < layers.length; l++) reorder(layers[l]!, (id) => preds.get(id)!);
    for (let l = layers.length - 2; l >= 0; l--) reorder(layers[l]!, (id) => succs.get(id)!);
  }

  const tallest = Math.max(0, ...layers.map((ids) => ids.length));
  const height = margin * 2 + tallest * nodeHeight + Math.max(0, tallest - 1) * rowGap;
  const width = margin * 2 + layers.length * nodeWidth + Math.max(0, layers.length - 1) * layerGap;

  const placed = new Map<string, PlacedNode>();
  layers.forEach((ids, l) => {
    const columnHeight = ids.length * nodeHeight + Math.max(0, ids.length - 1) * rowGap;
    const top = (height - columnHeight) / 2;
    ids.forEach((id, row) => {
      placed.set(id, {
        id,
        layer: l,
        row,
        x: margin + l * (nodeWidth + layerGap),
        y: top + row * (nodeHeight + rowGap),
        width: nodeWidth,
        height: nodeHeight,
      });
    });
  });

  const routed = usable.map((e) => {
    const a = placed.get(e.from)!;
    const b = placed.get(e.to)!;
    const [x1, y1] = [a.x + a.width, a.y + a.height / 2];
    const [x2, y2] = [b.x, b.y + b.height / 2];
    const bend = Math.max(24, (x2 - x1) / 2);
    return { ...e, path: `M${r(x1)},${r(y1)} C${r(x1 + bend)},${r(y1)} ${r(x2 - bend)},${r(y2)} ${r(x2)},${r(y2)}` };
  });

  return { nodes: nodeIds.map((id) => placed.get(id)!), edges: routed, width, height };
}

const r = (n: number): number => Math.round(n * 10) / 10;
