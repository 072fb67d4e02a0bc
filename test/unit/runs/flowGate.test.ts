import { arrive, emptyGate, groupCounts, isIdle, release, step, type FlowSettings, type FlowTicket, type GateState } from '../../../lib/runs/flowGate';

function ticket(runId: string, settings: FlowSettings, keys: Partial<FlowTicket['keys']> = {}, priority = 3): FlowTicket {
  return { runId, priority, settings, keys: { concurrency: '', throttle: '', debounce: '', ...keys } };
}

/** Arrivals then one step, as the gate workflow does per activation; returns every effect. */
function pass(state: GateState, now: number, tickets: FlowTicket[]) {
  const arrivals = tickets.map((t) => arrive(state, t, now));
  const { effects, wakeAt } = step(state, now);
  return {
    admit: [...arrivals.flatMap((a) => a.admit), ...effects.admit],
    drop: [...arrivals.flatMap((a) => a.drop), ...effects.drop].map((d) => `${d.runId}:${d.code}`),
    cancel: effects.cancel,
    queued: arrivals.flatMap((a) => a.queued),
    wakeAt,
  };
}

describe('concurrency', () => {
  const queue: FlowSettings = { concurrency: { limit: 2, strategy: 'queue' } };

  test('queue: at most `limit` per key, the rest start in arrival order as runs end', () => {
    const gate = emptyGate();
    const first = pass(gate, 0, ['a', 'b', 'c', 'd'].map((id) => ticket(id, queue)));
    expect(first.admit).toEqual(['a', 'b']);
    release(gate, 'b');
    expect(step(gate, 10).effects.admit).toEqual(['c']);
    release(gate, 'a');
    release(gate, 'c');
    expect(step(gate, 20).effects.admit).toEqual(['d']);
    release(gate, 'd');
    expect(isIdle(gate)).toBe(true);
  });

  test('queue per key: one busy key does not hold another key back', () => {
    const gate = emptyGate();
    const one: FlowSettings = { concurrency: { limit: 1, strategy: 'queue' } };
    const r = pass(gate, 0, [ticket('a1', one, { concurrency: 'a' }), ticket('a2', one, { concurrency: 'a' }), ticket('b1', one, { concurrency: 'b' })]);
    expect(r.admit).toEqual(['a1', 'b1']);
    expect(groupCounts(gate)).toEqual([
      { key: 'a', running: 1, waiting: 1, debouncing: 0 },
      { key: 'b', running: 1, waiting: 0, debouncing: 0 },
    ]);
  });

  test('priority: a waiting run with a lower number starts first', () => {
    const gate = emptyGate();
    const one: FlowSettings = { concurrency: { limit: 1, strategy: 'queue' } };
    pass(gate, 0, [ticket('busy', one)]);
    pass(gate, 1, [ticket('late-low', one, {}, 5), ticket('urgent', one, {}, 1), ticket('normal', one, {}, 3)]);
    const order: string[] = [];
    let current = 'busy';
    for (let t = 2; t < 6; t++) {
      release(gate, current);
      const admitted = step(gate, t).effects.admit;
      order.push(...admitted);
      current = admitted[0] ?? '';
    }
    expect(order).toEqual(['urgent', 'normal', 'late-low']);
  });

  test('queued runs go in the order they were created, whatever order they reach the gate in', () => {
    const gate = emptyGate();
    const one: FlowSettings = { concurrency: { limit: 1, strategy: 'queue' } };
    pass(gate, 0, [ticket('busy', one)]);
    pass(gate, 1, [{ ...ticket('second', one), createdAt: 20 }, { ...ticket('first', one), createdAt: 10 }]);
    release(gate, 'busy');
    expect(step(gate, 2).effects.admit).toEqual(['first']);
  });

  test('drop_newest: a run that finds its key full is dropped, never queued', () => {
    const gate = emptyGate();
    const drop: FlowSettings = { concurrency: { limit: 1, strategy: 'drop_newest' } };
    const r = pass(gate, 0, [ticket('a', drop), ticket('b', drop)]);
    expect(r.admit).toEqual(['a']);
    expect(r.drop).toEqual(['b:FLOW_DROPPED']);
    // The same run joining again (a retried activity) gets the same answer.
    expect(arrive(gate, ticket('b', drop), 1).drop.map((d) => d.code)).toEqual(['FLOW_DROPPED']);
  });

  test('cancel_oldest: the oldest running run is cancelled; the new one starts only after it ended', () => {
    const gate = emptyGate();
    const cancel: FlowSettings = { concurrency: { limit: 2, strategy: 'cancel_oldest' } };
    pass(gate, 0, [ticket('old', cancel)]);
    pass(gate, 5, [ticket('mid', cancel)]);
    const r = pass(gate, 10, [ticket('new', cancel)]);
    expect(r.admit).toEqual([]);
    expect(r.cancel).toEqual(['old']);
    // Asked once: the next step does not cancel another run for the same newcomer.
    expect(step(gate, 11).effects.cancel).toEqual([]);
    release(gate, 'old');
    expect(step(gate, 12).effects.admit).toEqual(['new']);
  });

  test('round_robin: a limit across keys, queued runs started in turn across keys', () => {
    const gate = emptyGate();
    const rr: FlowSettings = { concurrency: { limit: 1, strategy: 'round_robin' } };
    const arrivals = [
      ...['a1', 'a2', 'a3', 'a4'].map((id) => ticket(id, rr, { concurrency: 'a' })),
      ...['b1', 'b2'].map((id) => ticket(id, rr, { concurrency: 'b' })),
      ticket('c1', rr, { concurrency: 'c' }),
    ];
    const order = pass(gate, 0, arrivals).admit;
    for (let t = 1; t < 10 && order.length < 7; t++) {
      release(gate, order[order.length - 1]!);
      order.push(...step(gate, t).effects.admit);
    }
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  test('round_robin with key_limit: no key holds more than its share', () => {
    const gate = emptyGate();
    const rr: FlowSettings = { concurrency: { limit: 3, strategy: 'round_robin', keyLimit: 1 } };
    const r = pass(gate, 0, [ticket('a1', rr, { concurrency: 'a' }), ticket('a2', rr, { concurrency: 'a' }), ticket('b1', rr, { concurrency: 'b' })]);
    expect(r.admit).toEqual(['a1', 'b1']);
  });
});

describe('throttle', () => {
  const throttle: FlowSettings = { throttle: { limit: 2, periodMs: 1000 } };

  test('at most `limit` starts per sliding period; the rest wait for the next slot, none refused', () => {
    const gate = emptyGate();
    const r = pass(gate, 0, ['a', 'b', 'c', 'd', 'e'].map((id) => ticket(id, throttle)));
    expect(r.admit).toEqual(['a', 'b']);
    expect(r.wakeAt).toBe(1000);
    expect(step(gate, 999).effects.admit).toEqual([]);
    const next = step(gate, 1000);
    expect(next.effects.admit).toEqual(['c', 'd']);
    expect(next.wakeAt).toBe(2000);
    expect(step(gate, 2000).effects.admit).toEqual(['e']);
  });

  test('per key: each key has its own budget', () => {
    const gate = emptyGate();
    const one: FlowSettings = { throttle: { limit: 1, periodMs: 60_000 } };
    const r = pass(gate, 0, [ticket('x1', one, { throttle: 'x' }), ticket('x2', one, { throttle: 'x' }), ticket('y1', one, { throttle: 'y' })]);
    expect(r.admit).toEqual(['x1', 'y1']);
  });
});

describe('debounce', () => {
  test('last: each newer run replaces the waiting one and restarts the period; the last runs', () => {
    const gate = emptyGate();
    const last: FlowSettings = { debounce: { periodMs: 1000, mode: 'last' } };
    expect(pass(gate, 0, [ticket('a', last)]).queued).toEqual([{ runId: 'a', reason: 'debounce' }]);
    const second = pass(gate, 500, [ticket('b', last)]);
    expect(second.drop).toEqual(['a:DEBOUNCED']);
    expect(second.wakeAt).toBe(1500);
    expect(step(gate, 1499).effects.admit).toEqual([]);
    expect(step(gate, 1500).effects.admit).toEqual(['b']);
  });

  test('last: a run created before the waiting one but arriving after it is the one replaced', () => {
    const gate = emptyGate();
    const last: FlowSettings = { debounce: { periodMs: 1000, mode: 'last' } };
    pass(gate, 0, [{ ...ticket('newer', last), createdAt: 20 }]);
    expect(pass(gate, 10, [{ ...ticket('older', last), createdAt: 10 }]).drop).toEqual(['older:DEBOUNCED']);
    expect(step(gate, 1000).effects.admit).toEqual(['newer']);
  });

  test('last with max_wait: a steady stream still starts a run max_wait after its first', () => {
    const gate = emptyGate();
    const last: FlowSettings = { debounce: { periodMs: 1000, mode: 'last', maxWaitMs: 2500 } };
    let admitted: string[] = [];
    for (let t = 0; t <= 3000 && !admitted.length; t += 500) admitted = pass(gate, t, [ticket(`r${t}`, last)]).admit;
    expect(admitted).toEqual(['r2500']);
  });

  test('first: the first of a burst runs, later ones within the period are dropped, then the next burst', () => {
    const gate = emptyGate();
    const first: FlowSettings = { debounce: { periodMs: 1000, mode: 'first' } };
    expect(pass(gate, 0, [ticket('a', first)]).admit).toEqual(['a']);
    expect(pass(gate, 999, [ticket('b', first)]).drop).toEqual(['b:DEBOUNCED']);
    expect(pass(gate, 1000, [ticket('c', first)]).admit).toEqual(['c']);
  });

  test('per key, and combined with concurrency', () => {
    const gate = emptyGate();
    const both: FlowSettings = { debounce: { periodMs: 100, mode: 'last' }, concurrency: { limit: 1, strategy: 'queue' } };
    pass(gate, 0, [ticket('x', both, { debounce: 'x' }), ticket('y', both, { debounce: 'y' })]);
    expect(step(gate, 100).effects.admit).toEqual(['x']);
    release(gate, 'x');
    expect(step(gate, 101).effects.admit).toEqual(['y']);
  });
});

test('a repeated arrival is answered as the first; a release of an unknown run changes nothing', () => {
  const gate = emptyGate();
  const one: FlowSettings = { concurrency: { limit: 1, strategy: 'queue' } };
  pass(gate, 0, [ticket('a', one), ticket('b', one)]);
  expect(arrive(gate, ticket('a', one), 1).admit).toEqual(['a']);
  expect(arrive(gate, ticket('b', one), 1)).toEqual({ admit: [], drop: [], cancel: [], queued: [] });
  release(gate, 'nobody');
  expect(groupCounts(gate)).toEqual([{ key: '', running: 1, waiting: 1, debouncing: 0 }]);
  // A waiting run cancelled: released, never admitted.
  release(gate, 'b');
  release(gate, 'a');
  expect(step(gate, 2).effects.admit).toEqual([]);
  expect(isIdle(gate)).toBe(true);
});
