import { waitingOf } from '../../lib/picture/details';
import { layoutDag } from '../../lib/dag-layout/layout';
import { loopProgress, nodeDetails, nodeInput, parallelBranches, previewValue } from '../../lib/picture/details';
import { renderRunSvg, wrapText } from '../../lib/picture/runSvg';
import { etagMatches } from '../../domain/runs-picture/service';
import type { NodeDef } from '../../lib/dag/model';

const tool = (id: string, extra: Partial<NodeDef> = {}, config: Record<string, unknown> = {}): NodeDef => ({
  id,
  type: 'tool',
  config: { tool: 'json_transform', config, ...(extra.config ?? {}) },
  ...(extra.inputs ? { inputs: extra.inputs } : {}),
});
const done = (output: unknown) => ({ status: 'completed', attempts: 1, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', output, error: null });

describe('layoutDag groups and rank edges', () => {
  it('keeps the members of a group in adjacent rows of a layer', () => {
    // p starts a1, b1, a2; without the group, b1 could sit between a1 and a2.
    const nodes = ['p', 'a1', 'b1', 'a2'];
    const edges = ['a1', 'b1', 'a2'].map((to) => ({ from: 'p', to }));
    const layout = layoutDag(nodes, edges, { groups: [['a1', 'a2'], ['b1']] });
    const row = Object.fromEntries(layout.nodes.map((n) => [n.id, n.row]));
    expect(Math.abs(row.a1! - row.a2!)).toBe(1);
  });

  it("keeps other nodes out of a group's box and never overlaps two nodes", () => {
    // A parallel node with branches [a] and [b1 -> b2], a chain after it, and unrelated entry nodes.
    const nodes = ['fan', 'a', 'b1', 'b2', 'after', 'last', 'x1', 'x2', 'x3', 'x4'];
    const edges = [
      { from: 'fan', to: 'a' },
      { from: 'fan', to: 'b1' },
      { from: 'b1', to: 'b2' },
      { from: 'fan', to: 'after' },
      { from: 'after', to: 'last' },
    ];
    const groups = [['a'], ['b1', 'b2']];
    const layout = layoutDag(nodes, edges, { groups, rankEdges: ['a', 'b1', 'b2'].map((from) => ({ from, to: 'after' })) });
    const at = new Map(layout.nodes.map((n) => [n.id, n]));
    const meets = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const members of groups) {
      const boxes = members.map((id) => at.get(id)!);
      const box = {
        x: Math.min(...boxes.map((b) => b.x)),
        y: Math.min(...boxes.map((b) => b.y)),
        width: Math.max(...boxes.map((b) => b.x + b.width)) - Math.min(...boxes.map((b) => b.x)),
        height: Math.max(...boxes.map((b) => b.y + b.height)) - Math.min(...boxes.map((b) => b.y)),
      };
      for (const other of layout.nodes) if (!members.includes(other.id)) expect([other.id, meets(box, other)]).toEqual([other.id, false]);
    }
    for (const a of layout.nodes) for (const b of layout.nodes) if (a !== b) expect(meets(a, b)).toBe(false);
    // The chain of a branch stays on one row; every node fits the picture.
    expect(at.get('b1')!.y).toBe(at.get('b2')!.y);
    for (const n of layout.nodes) expect(n.y + n.height).toBeLessThanOrEqual(layout.height);
  });

  it('puts a node right of the nodes a rank edge names, without drawing that edge', () => {
    const layout = layoutDag(['p', 'm1', 'm2', 'after'], [
      { from: 'p', to: 'm1' },
      { from: 'm1', to: 'm2' },
      { from: 'p', to: 'after' },
    ], { rankEdges: [{ from: 'm2', to: 'after' }] });
    const layer = Object.fromEntries(layout.nodes.map((n) => [n.id, n.layer]));
    expect(layer.after).toBe(3);
    expect(layout.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['p>m1', 'm1>m2', 'p>after']);
  });
});

describe('wrapText', () => {
  it('wraps on words, cuts long words and ends with … when text is left', () => {
    expect(wrapText('aaa bbb ccc', 7, 2)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapText('abcdefghij', 4, 3)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('one two three four five', 8, 2)).toEqual(['one two', 'three…']);
    expect(wrapText('x'.repeat(20), 5, 2)).toEqual(['xxxxx', 'xxxx…']);
  });
});

describe('renderRunSvg', () => {
  const base = {
    title: 'wf',
    run: { id: 'r', status: 'failed', duration: 10 },
    edges: [],
    now: new Date('2026-01-01T00:00:05.000Z'),
  };

  it('writes a failed node\'s error as visible, escaped text and makes nodes focusable', () => {
    const svg = renderRunSvg({
      ...base,
      nodes: [{ id: 'n', type: 'tool', tool: 'fail' }],
      states: { n: { status: 'failed', attempts: 3, startedAt: null, finishedAt: null, error: { code: 'BOOM', message: 'bad <thing> & "more"' } } },
    });
    expect(svg).toMatch(/<text [^>]*class="error"[^>]*><tspan[^>]*>BOOM: bad &lt;thing&gt; &amp; /);
    expect(svg).not.toContain('<thing>');
    expect(svg).toContain('tabindex="0" role="button" aria-label="n: failed, BOOM"');
  });

  it('draws a box per parallel branch and a loop\'s progress', () => {
    const svg = renderRunSvg({
      ...base,
      nodes: [
        { id: 'fan', type: 'parallel' },
        { id: 'a', type: 'tool' },
        { id: 'b', type: 'tool' },
        { id: 'each', type: 'loop', loop: { total: 4, done: null, failedItems: [2], text: 'item [2] failed · 4 items' } },
      ],
      edges: [
        { from: 'fan', to: 'a' },
        { from: 'fan', to: 'b' },
      ],
      groups: [
        { parallel: 'fan', branch: 'left', nodes: ['a'] },
        { parallel: 'fan', branch: 'right', nodes: ['b'] },
      ],
      states: {},
    });
    expect(svg.match(/class="branch-group"/g)).toHaveLength(2);
    expect(svg).toContain('data-parallel="fan" data-branch="right"');
    expect(svg).toContain('class="loop-progress">item [2] failed · 4 items</text>');
    expect(svg).toContain('class="progress-failed"');
  });

  it('shows until when a waiting node waits, and only while it waits', () => {
    const until = '2026-12-01T09:30:00.000Z';
    const running = { status: 'running', attempts: 1, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, waiting_until: until };
    expect(waitingOf({ type: 'wait', config: { duration: '1h' } }, running)).toEqual({ waiting: { until, text: 'waits until 2026-12-01 09:30:00Z' } });
    expect(waitingOf({ type: 'wait_for_event', config: { event: 'custom.order.paid' } }, running).waiting?.text).toBe('waits for custom.order.paid until 2026-12-01 09:30:00Z');
    expect(waitingOf({ type: 'wait', config: {} }, { ...running, status: 'completed' })).toEqual({});
    expect(waitingOf({ type: 'tool', config: {} }, running)).toEqual({});
    // a tool node waiting for its turn under a rate limit
    const turn = { ...running, waiting_for: { reason: 'rate_limit', limits: ['host:api.partner.example'] } };
    expect(waitingOf({ type: 'tool', config: {} }, turn).waiting?.text).toBe('waits for its turn (host:api.partner.example) until 2026-12-01 09:30:00Z');
    const svg = renderRunSvg({ ...base, nodes: [{ id: 'pause', type: 'wait', waiting: { until, text: 'waits until 2026-12-01 09:30:00Z' } }], edges: [], groups: [], states: {} });
    expect(svg).toContain('class="waiting">waits until 2026-12-01 09:30:00Z</text>');
  });

  it('marks running durations so the page can count them on', () => {
    const svg = renderRunSvg({
      ...base,
      run: { ...base.run, status: 'running', startedAt: '2026-01-01T00:00:00.000Z' },
      nodes: [{ id: 'n', type: 'tool' }],
      states: { n: { status: 'running', attempts: 1, startedAt: '2026-01-01T00:00:01.000Z', finishedAt: null } },
    });
    expect(svg).toContain('class="facts" data-since="2026-01-01T00:00:01.000Z" data-prefix="running · 1 attempt · ">running · 1 attempt · 4.00 s');
  });
});

describe('node details', () => {
  it('previews values as JSON text and cuts long ones with their full length', () => {
    expect(previewValue({ a: '<script>' })).toEqual({ text: '{\n  "a": "<script>"\n}', truncated: false, totalChars: 21 });
    const long = previewValue('x'.repeat(5000), 100);
    expect(long.text).toHaveLength(100);
    expect(long).toMatchObject({ truncated: true, totalChars: 5002 });
    expect(previewValue({ $ref: 's3://b/k', bytes: 9, download_url: 'https://h/k' }).downloadUrl).toBe('https://h/k');
    expect(previewValue({ $ref: 's3://b/k', download_url: 'javascript:alert(1)' }).downloadUrl).toBeUndefined();
  });

  it('shows a tool node\'s config with the values its bindings read in this run', () => {
    const node = tool('t', { inputs: [{ from: 'up.result', name: 'data' }, { from: 'params.limit' }, { from: 'later.x' }] }, { expression: '$' });
    const input = nodeInput(node, { limit: 5 }, { up: done({ result: [1, 2] }) });
    expect(input.value).toEqual({ expression: '$', data: [1, 2], limit: 5 });
    expect(input.note).toContain('not available here: x (from later.x)');
  });

  it('tells loop progress from the output count, the items reference and the failed item', () => {
    const loop: NodeDef = { id: 'each', type: 'loop', config: { items: 'params.list', template: { type: 'tool', config: { tool: 'fail' } } } };
    const params = { list: [1, 2, 3] };
    expect(loopProgress(loop, done({ results: [1, 2, 3], count: 3 }), params, {})).toMatchObject({ total: 3, done: 3, text: '3 of 3 items' });
    expect(loopProgress(loop, { ...done(null), status: 'running', finishedAt: null }, params, {}).text).toBe('3 items · running');
    const failed = { ...done(null), status: 'failed', error: { code: 'TOOL_FAILED', message: 'item 1: nope' } };
    expect(loopProgress(loop, failed, params, {})).toEqual({ total: 3, done: null, failedItems: [1], text: 'item [1] failed · 3 items' });
    expect(loopProgress({ ...loop, config: { ...loop.config, items: '${[1,2]}' } }, undefined, params, {}).text).toBe('');
  });

  it('tells a running loop\'s finished items from its live node state', () => {
    const loop: NodeDef = { id: 'each', type: 'loop', config: { items: 'up.result', template: { type: 'tool', config: { tool: 'delay' } } } };
    const running = { ...done(null), status: 'running', finishedAt: null, items: { total: 40, done: 17 } };
    expect(loopProgress(loop, running, {}, {})).toEqual({ total: 40, done: 17, failedItems: [], text: '17 of 40 items · running' });
  });

  it('links a subworkflow node\'s child run and names parallel branches', () => {
    const nodes: NodeDef[] = [
      { id: 'fan', type: 'parallel', config: { branches: [{ id: 'b1', nodes: ['sub'] }], joinStrategy: 'wait_all' } },
      { id: 'sub', type: 'subworkflow', config: { workflow_id: 'w2', inputs: {} } },
    ];
    expect(parallelBranches(nodes)).toEqual([{ parallel: 'fan', branch: 'b1', nodes: ['sub'] }]);
    const details = nodeDetails({
      nodes,
      parameters: {},
      states: { sub: { ...done({}), child_run_id: 'c1' } },
      picturePath: (w, r) => `/ui/workflows/${w}/runs/${r}/picture`,
    });
    expect(details.sub!.childRun).toEqual({ runId: 'c1', workflowId: 'w2', picture: '/ui/workflows/w2/runs/c1/picture' });
    expect(details.sub!.branchOf).toEqual({ parallel: 'fan', branch: 'b1' });
    expect(details.fan!.parallel).toEqual({ joinStrategy: 'wait_all', branches: [{ id: 'b1', nodes: ['sub'] }] });
  });

  it('leaves values out past the picture\'s budget', () => {
    const nodes = [tool('a'), tool('b')];
    const states = { a: done('x'.repeat(300)), b: done('y'.repeat(300)) };
    const details = nodeDetails({ nodes, parameters: {}, states, picturePath: () => '', budget: 500 });
    expect(details.a!.output?.text).toContain('xxx');
    expect(details.b!.output).toBeNull();
    expect(details.b!.valuesOmitted).toMatch(/not included/);
  });
});

describe('etagMatches', () => {
  it('compares weakly and accepts lists and *', () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('*', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(etagMatches(undefined, 'W/"abc"')).toBe(false);
  });
});
