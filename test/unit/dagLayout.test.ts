import { layoutDag } from '../../lib/dag-layout/layout';
import { escapeXml, formatDuration, renderRunSvg } from '../../lib/picture/runSvg';

describe('layoutDag', () => {
  const nodes = ['a', 'b', 'c', 'd', 'e'];
  const edges = [
    { from: 'a', to: 'b' },
    { from: 'a', to: 'c' },
    { from: 'b', to: 'd' },
    { from: 'c', to: 'd' },
    { from: 'a', to: 'd' },
  ];

  it('puts every node right of its predecessors (longest-path layers)', () => {
    const layout = layoutDag(nodes, edges);
    const at = Object.fromEntries(layout.nodes.map((n) => [n.id, n]));
    expect([at.a!.layer, at.b!.layer, at.c!.layer, at.d!.layer, at.e!.layer]).toEqual([0, 1, 1, 2, 0]);
    for (const e of edges) expect(at[e.to]!.x).toBeGreaterThan(at[e.from]!.x);
  });

  it('never overlaps two nodes and fits them in its size', () => {
    const layout = layoutDag(nodes, edges);
    for (const a of layout.nodes) {
      expect(a.x + a.width).toBeLessThanOrEqual(layout.width);
      expect(a.y + a.height).toBeLessThanOrEqual(layout.height);
      for (const b of layout.nodes) {
        if (a === b) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart).toBe(true);
      }
    }
  });

  it('is deterministic and ignores unknown, duplicate and self edges', () => {
    const noisy = [...edges, { from: 'a', to: 'b' }, { from: 'x', to: 'a' }, { from: 'e', to: 'e' }];
    expect(layoutDag(nodes, noisy)).toEqual(layoutDag(nodes, edges));
    expect(layoutDag(nodes, edges).edges).toHaveLength(5);
  });

  it('orders a layer to avoid crossings', () => {
    // a1 -> b2 and a2 -> b1: the second layer is reordered to follow its parents.
    const layout = layoutDag(['a1', 'a2', 'b1', 'b2'], [
      { from: 'a1', to: 'b2' },
      { from: 'a2', to: 'b1' },
    ]);
    const row = Object.fromEntries(layout.nodes.map((n) => [n.id, n.row]));
    expect(row.b2).toBeLessThan(row.b1!);
  });

  it('survives a cycle (bad input) by placing the remaining nodes last', () => {
    const layout = layoutDag(['a', 'b', 'c'], [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'b' },
    ]);
    expect(layout.nodes).toHaveLength(3);
  });
});

describe('renderRunSvg', () => {
  it('escapes text and marks each node with its status', () => {
    const svg = renderRunSvg({
      title: 'a <b> & "c"',
      run: { id: 'r1', status: 'running', duration: 1500 },
      nodes: [
        { id: 'n1', type: 'tool', tool: 'json_transform' },
        { id: 'n2', type: 'tool', tool: 'http_request' },
      ],
      edges: [{ from: 'n1', to: 'n2' }],
      states: {
        n1: { status: 'completed', attempts: 2, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.250Z' },
        n2: { status: 'running', attempts: 1, startedAt: '2026-01-01T00:00:01.250Z', finishedAt: null },
      },
      now: new Date('2026-01-01T00:00:03.250Z'),
    });
    expect(svg).toContain('a &lt;b&gt; &amp; &quot;c&quot;');
    expect(svg).toContain('data-node-id="n1" data-status="completed" data-attempts="2"');
    expect(svg).toContain('completed · 2 attempts · 1.25 s');
    expect(svg).toContain('running · 1 attempt · 2.00 s');
    expect(svg).not.toContain('<b>');
  });

  it('formats durations and escapes XML', () => {
    expect(formatDuration(12)).toBe('12 ms');
    expect(formatDuration(61_000)).toBe('1 min 1 s');
    expect(formatDuration(3_720_000)).toBe('1 h 2 min');
    expect(escapeXml(`<'&">`)).toBe('&lt;&#39;&amp;&quot;&gt;');
  });
});
