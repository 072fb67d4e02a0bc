import {
  chooseSpills,
  groupWithin,
  jsonBytes,
  MIN_SPILL_BYTES,
  planPass,
  type PassInput,
} from '../../../workflows/runs/scheduler/spill';
import { isValueRef } from '../../../lib/runs/types';

/** What the interpreter stores to keep the values it assembles within the run's payload budget (scheduler/spill.ts). */

const KB = 1000;
const text = (bytes: number): string => 'x'.repeat(bytes - 2); // a JSON string of `bytes` bytes
const ref = { $ref: 's3://loom/org/o/runs/r/a.json', bytes: 10 };

describe('jsonBytes', () => {
  test('counts UTF-8 bytes of the JSON, as Temporal does', () => {
    expect(jsonBytes('abc')).toBe(5);
    expect(jsonBytes('é')).toBe(4); // 2 bytes + quotes
    expect(jsonBytes('€')).toBe(5); // 3 bytes + quotes
    expect(jsonBytes('😀')).toBe(6); // a surrogate pair: 4 bytes + quotes
    expect(jsonBytes({ a: [1, null] })).toBe(JSON.stringify({ a: [1, null] }).length);
    expect(jsonBytes(undefined)).toBe(0);
  });
});

describe('chooseSpills', () => {
  test('nothing while the total is within the budget', () => {
    expect(chooseSpills([{ key: 'a', bytes: 900, uses: 1 }], 900, 1000)).toEqual([]);
  });

  test('the largest share first (bytes × uses), until the total fits', () => {
    const candidates = [
      { key: 'wide', bytes: 300 * KB, uses: 1 },
      { key: 'shared', bytes: 100 * KB, uses: 5 },
      { key: 'small', bytes: 200 * KB, uses: 1 },
    ];
    // 300 + 500 + 200 = 1,000 kB against 600 kB: storing `shared` saves ~500 kB, then `wide` the rest
    expect(chooseSpills(candidates, 1000 * KB, 600 * KB)).toEqual(['shared']);
    expect(chooseSpills(candidates, 1000 * KB, 400 * KB)).toEqual(['shared', 'wide']);
  });

  test('values under MIN_SPILL_BYTES stay inline even when the total cannot fit', () => {
    const tiny = Array.from({ length: 2000 }, (_, i) => ({ key: i, bytes: MIN_SPILL_BYTES - 1, uses: 1 }));
    expect(chooseSpills(tiny, 2000 * MIN_SPILL_BYTES, 1000)).toEqual([]);
  });

  test('a reference still costs its bytes: every candidate is chosen when that is all one can do', () => {
    const candidates = [
      { key: 'a', bytes: 2 * KB, uses: 100 },
      { key: 'b', bytes: 2 * KB, uses: 100 },
    ];
    // storing `a` leaves 200 kB + 100 references of REF_BYTES (20 kB): over 210 kB, so `b` too (not counting them, `a` alone)
    expect(chooseSpills(candidates, 400 * KB, 210 * KB)).toEqual(['a', 'b']);
  });

  test('ties keep the order given', () => {
    const candidates = ['c', 'a', 'b'].map((key) => ({ key, bytes: 10 * KB, uses: 1 }));
    expect(chooseSpills(candidates, 30 * KB, 5 * KB)).toEqual(['c', 'a', 'b']);
  });
});

describe('groupWithin', () => {
  test('consecutive groups within the budget; a value over it is a group of its own', () => {
    const sized = [400, 400, 300, 1200, 100].map((bytes, i) => ({ i, bytes }));
    expect(groupWithin(sized, 1000).map((g) => g.map((v) => v.i))).toEqual([[0, 1], [2], [3], [4]]);
    expect(groupWithin([], 1000)).toEqual([]);
  });
});

describe('planPass', () => {
  const pass = (over: Partial<PassInput>): PassInput => ({
    joins: [],
    starts: [],
    outputOf: () => undefined,
    params: {},
    storedParams: new Set(),
    isStored: isValueRef,
    bytesOf: jsonBytes,
    budget: 1000 * KB,
    ...over,
  });
  const outputs: Record<string, unknown> = { big: text(400 * KB), small: text(2 * KB), stored: ref };
  const reading = (node: string, nodes: string[], copies = 1, params: string[] | 'all' = []) => ({
    node,
    contexts: [{ reads: { nodes, params }, copies }],
  });

  test('within the budget: nothing to store', () => {
    const plan = planPass(pass({ starts: [reading('a', ['big', 'small'])], outputOf: (id) => outputs[id] }));
    expect(plan).toEqual({ spills: [], holdStarts: false, holdJoins: [] });
  });

  test('three nodes reading one 400 kB output in one pass: it is stored once', () => {
    const starts = ['a', 'b', 'c'].map((id) => reading(id, ['big', 'small']));
    expect(planPass(pass({ starts, outputOf: (id) => outputs[id] }))).toEqual({ spills: [{ node: 'big' }], holdStarts: false, holdJoins: [] });
  });

  test("a loop's template context counts once per item in flight", () => {
    const plan = planPass(pass({ starts: [reading('each', ['small'], 600)], outputOf: (id) => outputs[id] }));
    expect(plan.spills).toEqual([{ node: 'small' }]);
  });

  test('stored outputs and stored parameters are references already; parameters read by all', () => {
    const params = { doc: text(600 * KB), flag: true };
    const starts = ['a', 'b'].map((id) => reading(id, ['stored'], 1, 'all'));
    expect(planPass(pass({ starts, params, outputOf: (id) => outputs[id] })).spills).toEqual([{ param: 'doc' }]);
    expect(planPass(pass({ starts, params, storedParams: new Set(['doc']), outputOf: (id) => outputs[id] })).spills).toEqual([]);
  });

  test('a join over the budget stores its largest members, before any start is planned', () => {
    const join = { node: 'fan', output: { branches: { one: { m1: text(700 * KB) }, two: { m2: text(500 * KB), m3: ref } } } };
    const plan = planPass(pass({ joins: [join], starts: [reading('after', ['fan'])] }));
    expect(plan).toEqual({ spills: [{ node: 'm1' }], holdStarts: false, holdJoins: [] });
  });

  test('a join whose largest member is a parallel node completing in the same pass waits for it: that output is stored next pass', () => {
    const inner = { node: 'inner', output: { branches: { x: { m1: text(400 * KB) }, y: { m2: text(400 * KB) } } } };
    const outer = { node: 'outer', output: { branches: { a: { inner: inner.output }, b: { m3: text(300 * KB) } } } };
    expect(planPass(pass({ joins: [inner, outer], starts: [reading('after', ['outer'])] }))).toEqual({
      spills: [],
      holdStarts: true,
      holdJoins: ['outer'],
    });
    // next pass: `inner` completed (its output inline, under the budget), `outer` completes again and stores it
    const next = planPass(pass({ joins: [outer], outputOf: (id) => (id === 'inner' ? inner.output : undefined) }));
    expect(next.spills).toEqual([{ node: 'inner' }]);
  });

  test('starts reading a join that completes in the same pass, too much together: the starts wait for the next pass', () => {
    const join = { node: 'fan', output: { branches: { one: { m1: text(300 * KB) }, two: { m2: text(300 * KB) } } } };
    const starts = ['a', 'b'].map((id) => reading(id, ['fan']));
    expect(planPass(pass({ joins: [join], starts }))).toEqual({ spills: [], holdStarts: true, holdJoins: [] });
  });
});
