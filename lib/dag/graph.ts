/**
 * Graph algorithms over node ids, iterative throughout (graphs up to thousands of nodes, hostile input included),
 * and pure: this folder is bundled into workflow code.
 */

export interface Graph {
  nodes: string[];
  /** node -> successors, in insertion order, without duplicates */
  successors: Map<string, string[]>;
  /** node -> predecessors */
  predecessors: Map<string, string[]>;
}

export function buildGraph(nodes: string[], edges: { from: string; to: string }[]): Graph {
  const successors = new Map<string, string[]>();
  const predecessors = new Map<string, string[]>();
  for (const n of nodes) {
    successors.set(n, []);
    predecessors.set(n, []);
  }
  for (const { from, to } of edges) {
    const out = successors.get(from);
    const inc = predecessors.get(to);
    if (!out || !inc) continue; // edges to unknown nodes are reported by validation, not followed
    if (!out.includes(to)) out.push(to);
    if (!inc.includes(from)) inc.push(from);
  }
  return { nodes: [...nodes], successors, predecessors };
}

/** Strongly connected components (Tarjan, iterative). */
export function stronglyConnectedComponents(graph: Graph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.nodes) {
    if (indices.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    indices.set(start, index);
    lowlink.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const succ = graph.successors.get(frame.node)!;
      if (frame.next < succ.length) {
        const w = succ[frame.next++]!;
        if (!indices.has(w)) {
          indices.set(w, index);
          lowlink.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, next: 0 });
        } else if (onStack.has(w)) {
          lowlink.set(frame.node, Math.min(lowlink.get(frame.node)!, indices.get(w)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowlink.set(parent.node, Math.min(lowlink.get(parent.node)!, lowlink.get(frame.node)!));
      if (lowlink.get(frame.node) === indices.get(frame.node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.node);
        components.push(component.reverse());
      }
    }
  }
  return components;
}

/**
 * One named cycle per strongly connected component that has one: `['a', 'b', 'c', 'a']`. The cycle starts at the
 * component's first node in graph order, so messages are stable.
 */
export function findCycles(graph: Graph): string[][] {
  const order = new Map(graph.nodes.map((n, i) => [n, i]));
  const cycles: string[][] = [];
  for (const component of stronglyConnectedComponents(graph)) {
    const members = new Set(component);
    const start = [...component].sort((a, b) => order.get(a)! - order.get(b)!)[0]!;
    if (component.length === 1 && !graph.successors.get(start)!.includes(start)) continue;
    // BFS inside the component from start back to start gives a shortest cycle through it.
    const parent = new Map<string, string>();
    const queue = [start];
    let closing: string | null = null;
    while (queue.length && !closing) {
      const u = queue.shift()!;
      for (const w of graph.successors.get(u)!) {
        if (!members.has(w)) continue;
        if (w === start) {
          closing = u;
          break;
        }
        if (!parent.has(w)) {
          parent.set(w, u);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let n = closing!; n !== start; n = parent.get(n)!) path.splice(1, 0, n);
    path.push(start);
    cycles.push(path);
  }
  return cycles.sort((a, b) => order.get(a[0]!)! - order.get(b[0]!)!);
}

/** Kahn's order; null when the graph has a cycle. Ties keep graph order, so the order is deterministic. */
export function topologicalOrder(graph: Graph): string[] | null {
  const remaining = new Map(graph.nodes.map((n) => [n, graph.predecessors.get(n)!.length]));
  const ready = graph.nodes.filter((n) => remaining.get(n) === 0);
  const order: string[] = [];
  while (ready.length) {
    const n = ready.shift()!;
    order.push(n);
    for (const s of graph.successors.get(n)!) {
      const left = remaining.get(s)! - 1;
      remaining.set(s, left);
      if (left === 0) ready.push(s);
    }
  }
  return order.length === graph.nodes.length ? order : null;
}

/** Nodes without predecessors. */
export function sources(graph: Graph): string[] {
  return graph.nodes.filter((n) => graph.predecessors.get(n)!.length === 0);
}

/** Nodes without successors. */
export function sinks(graph: Graph): string[] {
  return graph.nodes.filter((n) => graph.successors.get(n)!.length === 0);
}

/** Every node from which `node` can be reached (its transitive predecessors), cycles tolerated. */
export function ancestorsOf(graph: Graph, node: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(graph.predecessors.get(node) ?? [])];
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...graph.predecessors.get(n)!);
  }
  return seen;
}

/** Memoising ancestor lookup for repeated queries during validation. */
export function ancestorIndex(graph: Graph): (node: string) => Set<string> {
  const cache = new Map<string, Set<string>>();
  return (node) => {
    let set = cache.get(node);
    if (!set) {
      set = ancestorsOf(graph, node);
      cache.set(node, set);
    }
    return set;
  };
}

/** Every node reachable from `node`. */
export function descendantsOf(graph: Graph, node: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(graph.successors.get(node) ?? [])];
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...graph.successors.get(n)!);
  }
  return seen;
}
