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
  /**
   * Sets of nodes kept together: within each layer the members of a group sit in adjacent rows (the picture draws
   * a box around each branch of a parallel node). A node belongs to its first group.
   */
  groups?: string[][];
  /** Edges that only shape the layers (`to` goes right of `from`) and are neither drawn nor routed. */
  rankEdges?: LayoutEdge[];
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
  const keep = (e: LayoutEdge): boolean => {
    const key = `${e.from}\u0000${e.to}`;
    if (!known.has(e.from) || !known.has(e.to) || e.from === e.to || seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const usable = edges.filter(keep);
  // Rank-only edges after the drawn ones: one that duplicates a drawn edge adds nothing.
  const ranking = [...usable, ...(options.rankEdges ?? []).filter(keep)];
  const preds = new Map(nodeIds.map((id) => [id, [] as string[]]));
  const succs = new Map(nodeIds.map((id) => [id, [] as string[]]));
  for (const e of ranking) {
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

  // Groups: in each layer, a group's members move to the row of its first member, in their order.
  const groupOf = new Map<string, number>();
  (options.groups ?? []).forEach((members, g) => members.forEach((id) => groupOf.has(id) || groupOf.set(id, g)));
  if (groupOf.size) {
    for (const ids of layers) {
      const firstRow = new Map<number, number>();
      ids.forEach((id, i) => {
        const g = groupOf.get(id);
        if (g !== undefined && !firstRow.has(g)) firstRow.set(g, i);
      });
      const key = (id: string): number => {
        const g = groupOf.get(id);
        return g === undefined ? position.get(id)! : firstRow.get(g)!;
      };
      ids.sort((a, b) => key(a) - key(b) || position.get(a)! - position.get(b)!);
      ids.forEach((id, i) => position.set(id, i));
    }
  }

  const width = margin * 2 + layers.length * nodeWidth + Math.max(0, layers.length - 1) * layerGap;
  const place = (id: string, l: number, row: number, y: number): PlacedNode => ({
    id,
    layer: l,
    row,
    x: margin + l * (nodeWidth + layerGap),
    y,
    width: nodeWidth,
    height: nodeHeight,
  });
  const placed = new Map<string, PlacedNode>();
  let height: number;
  if (groupOf.size) {
    // On a grid of rows shared by all layers, so that a group's box holds its members and nothing else.
    const rows = gridRows(layers, groupOf);
    const rowCount = Math.max(0, ...[...rows.values()].map((row) => row + 1));
    height = margin * 2 + rowCount * nodeHeight + Math.max(0, rowCount - 1) * rowGap;
    layers.forEach((ids, l) => ids.forEach((id) => placed.set(id, place(id, l, rows.get(id)!, margin + rows.get(id)! * (nodeHeight + rowGap)))));
  } else {
    // Each layer centred on the tallest one.
    const tallest = Math.max(0, ...layers.map((ids) => ids.length));
    height = margin * 2 + tallest * nodeHeight + Math.max(0, tallest - 1) * rowGap;
    layers.forEach((ids, l) => {
      const columnHeight = ids.length * nodeHeight + Math.max(0, ids.length - 1) * rowGap;
      const top = (height - columnHeight) / 2;
      ids.forEach((id, row) => placed.set(id, place(id, l, row, top + row * (nodeHeight + rowGap))));
    });
  }

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

/**
 * Rows on a grid shared by every layer, for layouts with groups. Each group gets a band of rows (as many as it has
 * members in its fullest layer) reserved across all the layers it spans, starting near where its first member
 * would sit in a centred layout and pushed down past the bands it would overlap. Other nodes take, in their
 * layer's order, the free row nearest to their centred position.
 */
function gridRows(layers: string[][], groupOf: Map<string, number>): Map<string, number> {
  const tallest = Math.max(0, ...layers.map((ids) => ids.length));
  const centred = new Map<string, number>();
  layers.forEach((ids) => ids.forEach((id, i) => centred.set(id, Math.round((tallest - ids.length) / 2 + i))));

  interface Band {
    first: number;
    last: number;
    size: number;
    want: number;
    start: number;
  }
  const bands = new Map<number, Band>();
  layers.forEach((ids, l) => {
    const inLayer = new Map<number, number>();
    for (const id of ids) {
      const g = groupOf.get(id);
      if (g === undefined) continue;
      inLayer.set(g, (inLayer.get(g) ?? 0) + 1);
      if (!bands.has(g)) bands.set(g, { first: l, last: l, size: 0, want: centred.get(id)!, start: 0 });
    }
    for (const [g, count] of inLayer) {
      const band = bands.get(g)!;
      band.last = l;
      band.size = Math.max(band.size, count);
    }
  });
  const settled: Band[] = [];
  for (const band of [...bands.values()].sort((a, b) => a.want - b.want || a.first - b.first)) {
    let start = band.want;
    for (let moved = true; moved; ) {
      moved = false;
      for (const other of settled) {
        const layersMeet = other.first <= band.last && band.first <= other.last;
        const rowsMeet = other.start < start + band.size && start < other.start + other.size;
        if (layersMeet && rowsMeet) {
          start = other.start + other.size;
          moved = true;
        }
      }
    }
    band.start = start;
    settled.push(band);
  }

  const rows = new Map<string, number>();
  layers.forEach((ids, l) => {
    const taken = new Set<number>();
    for (const band of settled) if (band.first <= l && l <= band.last) for (let i = 0; i < band.size; i++) taken.add(band.start + i);
    const next = new Map<number, number>();
    for (const id of ids) {
      const g = groupOf.get(id);
      if (g === undefined) continue;
      const band = bands.get(g)!;
      const offset = next.get(g) ?? 0;
      next.set(g, offset + 1);
      rows.set(id, band.start + offset);
    }
    let floor = 0;
    for (const id of ids) {
      if (groupOf.has(id)) continue;
      let row = Math.max(floor, centred.get(id)!);
      while (taken.has(row)) row++;
      taken.add(row);
      rows.set(id, row);
      floor = row + 1;
    }
  });
  return rows;
}
