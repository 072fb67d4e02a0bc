import { hostRateLimitsSchema } from '../../domain/destinationLimits/schemas';
import { toolConfigSchema } from '../../lib/dag/model';
import { ClockOffset, destinationOf, lateToleranceMs, limitsOfCall, normalizeLimitHost, takeTurnIn, turnCostUs } from '../../lib/destinationLimits';

/** Rate limits on destinations, the pure part (lib/destinationLimits.ts, docs/runs.md#rate-limits-on-destinations). */

describe('the turn arithmetic', () => {
  test('a call costs (per + margin) / requests, rounded up to a microsecond', () => {
    expect(turnCostUs({ requests: 10, per: '1s' }, 50)).toBe(105_000);
    expect(turnCostUs({ requests: 3, per: '100ms' }, 10)).toBe(36_667);
    expect(turnCostUs({ requests: 10_000, per: '100ms' }, 10)).toBe(11);
    expect(turnCostUs({ requests: 1, per: '1h' }, 50)).toBe(3_600_050_000);
    expect(lateToleranceMs(50)).toBe(25);
  });

  test('a turn is now or the next turn, whichever is later, and moves each limit its own cost past it', () => {
    expect(takeTurnIn(1_000, [{ nextTurnUs: 0, costUs: 100 }])).toEqual({ atUs: 1_000, nextTurnsUs: [1_100] });
    expect(takeTurnIn(1_000, [{ nextTurnUs: 5_000, costUs: 100 }])).toEqual({ atUs: 5_000, nextTurnsUs: [5_100] });
    expect(takeTurnIn(1_000, [{ nextTurnUs: 1_200, costUs: 100 }, { nextTurnUs: 3_000, costUs: 500 }])).toEqual({ atUs: 3_000, nextTurnsUs: [3_100, 3_500] });
  });

  /** Calls arriving at random, each taking its turn and starting up to `slipUs` after it; the starts of one limit. */
  function simulate(seed: number, calls: number, limits: { costUs: number }[], pick: (i: number) => number[], slipUs: number): number[][] {
    let state = seed;
    const random = (): number => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const next = limits.map(() => 0);
    const starts: number[][] = limits.map(() => []);
    let now = 0;
    for (let i = 0; i < calls; i++) {
      now += Math.floor(random() * 2 * limits[0]!.costUs);
      const under = pick(i);
      const taken = takeTurnIn(now, under.map((l) => ({ nextTurnUs: next[l]!, costUs: limits[l]!.costUs })));
      under.forEach((l, j) => (next[l] = taken.nextTurnsUs[j]!));
      const start = taken.atUs + Math.floor(random() * slipUs);
      for (const l of under) starts[l]!.push(start);
    }
    return starts;
  }

  /** The most starts in any window [t, t + windowUs). */
  function busiestWindow(starts: number[], windowUs: number): number {
    const sorted = [...starts].sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; i < sorted.length; i++) {
      while (sorted[i]! - sorted[j]! >= windowUs) j++;
      most = Math.max(most, i - j + 1);
    }
    return most;
  }

  test('no window of `per` holds more than `requests` starts, however the calls come, with starts slipping less than half the margin', () => {
    const marginMs = 50;
    const limit = { requests: 10, per: '1s' };
    const costUs = turnCostUs(limit, marginMs);
    for (let seed = 1; seed <= 20; seed++) {
      const [starts] = simulate(seed, 2_000, [{ costUs }], () => [0], lateToleranceMs(marginMs) * 1000);
      expect(busiestWindow(starts!, 1_000_000)).toBeLessThanOrEqual(10);
    }
  });

  test('calls under two limits at once keep both', () => {
    const marginMs = 50;
    const host = turnCostUs({ requests: 10, per: '1s' }, marginMs);
    const keyed = turnCostUs({ requests: 2, per: '1s' }, marginMs);
    // every third call is also under the node's keyed limit
    const [hostStarts, keyedStarts] = simulate(7, 3_000, [{ costUs: host }, { costUs: keyed }], (i) => (i % 3 === 0 ? [0, 1] : [0]), 20_000);
    expect(busiestWindow(hostStarts!, 1_000_000)).toBeLessThanOrEqual(10);
    expect(busiestWindow(keyedStarts!, 1_000_000)).toBeLessThanOrEqual(2);
  });

  test('without the margin, the same slips would let a destination see more than the limit (what the margin is for)', () => {
    const [starts] = simulate(3, 2_000, [{ costUs: turnCostUs({ requests: 10, per: '1s' }, 0) }], () => [0], 25_000);
    expect(busiestWindow(starts!, 1_000_000)).toBeGreaterThan(10);
  });
});

describe("the database's clock as this process's", () => {
  test('the offset is the smallest (read here - written there) of the last window: never below the true one', () => {
    // the true offset is 1,000 ms; answers take 0.2 to 40 ms to be read
    const clock = new ClockOffset(10_000);
    expect(clock.observe(5_040, 4_000)).toBe(1_040);
    expect(clock.observe(5_100.2, 4_100)).toBeCloseTo(1_000.2);
    // a slow read later changes nothing
    expect(clock.observe(5_250, 4_200)).toBeCloseTo(1_000.2);
    expect(clock.observe(14_000, 12_990)).toBeCloseTo(1_000.2);
    // once the best sample is older than the window, the best of those left
    expect(clock.observe(15_200, 14_195)).toBe(1_005);
    expect(clock.observe(16_000, 14_999.5)).toBeCloseTo(1_000.5);
  });
});

describe('which limits a call is under', () => {
  const org = [
    { host: 'api.partner.example', requests: 10, per: '1s' },
    { host: 'api.partner.example:8443', requests: 2, per: '1s' },
    { host: 'other.example', requests: 1, per: '1m' },
  ];
  const call = (url: string | null, nodeLimit?: { requests: number; per: string; key?: string }) =>
    limitsOfCall({ organizationLimits: org, nodeLimit, toolId: 'http_request', destination: url === null ? null : destinationOf({ url }), marginMs: 50 });

  test('the destination of a tool is its url, else its webhook_url', () => {
    expect(destinationOf({ url: 'https://API.Partner.example/v1?q=1' })).toEqual({ hostname: 'api.partner.example', port: '443' });
    expect(destinationOf({ url: 'http://127.0.0.1:8080/x' })).toEqual({ hostname: '127.0.0.1', port: '8080' });
    expect(destinationOf({ webhook_url: 'https://hooks.chat.example/T1' })).toEqual({ hostname: 'hooks.chat.example', port: '443' });
    expect(destinationOf({ url: 'http://[::1]:9/' })).toEqual({ hostname: '[::1]', port: '9' });
    expect(destinationOf({ url: 'not a url' })).toBeNull();
    expect(destinationOf({ expression: '1' })).toBeNull();
    expect(destinationOf(null)).toBeNull();
  });

  test("the organization's limits on the host, and on the host and port when a limit names one", () => {
    expect(call('https://api.partner.example/orders')).toEqual([{ key: 'host:api.partner.example', costUs: 105_000 }]);
    expect(call('https://api.partner.example:8443/orders')).toEqual([
      { key: 'host:api.partner.example', costUs: 105_000 },
      { key: 'host:api.partner.example:8443', costUs: 525_000 },
    ]);
    expect(call('https://elsewhere.example/')).toEqual([]);
    expect(call(null)).toEqual([]);
  });

  test("a node's own limit: by its key, else by the destination host (sharing the organization's), else by the tool", () => {
    expect(call('https://elsewhere.example/', { requests: 5, per: '1s', key: 'partner' })).toEqual([{ key: 'key:partner', costUs: 210_000 }]);
    expect(call('https://api.partner.example/', { requests: 5, per: '1s', key: 'partner' })).toEqual([
      { key: 'host:api.partner.example', costUs: 105_000 },
      { key: 'key:partner', costUs: 210_000 },
    ]);
    // one key, the larger cost: both limits hold
    expect(call('https://api.partner.example/', { requests: 2, per: '1s' })).toEqual([{ key: 'host:api.partner.example', costUs: 525_000 }]);
    expect(call('https://api.partner.example/', { requests: 100, per: '1s' })).toEqual([{ key: 'host:api.partner.example', costUs: 105_000 }]);
    expect(call(null, { requests: 1, per: '1s' })).toEqual([{ key: 'tool:http_request', costUs: 1_050_000 }]);
  });
});

describe('declarations', () => {
  test('an organization limit names a host, with an optional port, normalised', () => {
    expect(normalizeLimitHost('API.Partner.Example')).toBe('api.partner.example');
    expect(normalizeLimitHost('api.partner.example:8443')).toBe('api.partner.example:8443');
    expect(normalizeLimitHost('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeLimitHost('[::1]:80')).toBe('[::1]:80');
    expect(normalizeLimitHost('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of ['https://api.partner.example', 'api.partner.example/v1', 'user@host', 'host:0', 'host:70000', 'a b', '', ':80']) {
      expect(normalizeLimitHost(bad)).toBeNull();
    }
  });

  test('organization limits: bounds, one per host, and problems named by their place', () => {
    expect(hostRateLimitsSchema.parse([{ host: 'API.partner.example', requests: 10, per: '1s' }])).toEqual([{ host: 'api.partner.example', requests: 10, per: '1s' }]);
    const problems = (value: unknown): { path: string; message: string }[] => {
      const result = hostRateLimitsSchema.safeParse(value);
      return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    };
    expect(problems([{ host: 'a.example', requests: 0, per: '1s' }])).toEqual([{ path: '0.requests', message: expect.any(String) }]);
    expect(problems([{ host: 'a.example', requests: 10_001, per: '1s' }])).toEqual([{ path: '0.requests', message: expect.any(String) }]);
    expect(problems([{ host: 'a.example', requests: 1, per: '50ms' }])).toEqual([{ path: '0.per', message: 'a duration from 100ms to 1h, such as 1s or 1m' }]);
    expect(problems([{ host: 'a.example', requests: 1, per: '2h' }])).toEqual([{ path: '0.per', message: 'a duration from 100ms to 1h, such as 1s or 1m' }]);
    expect(problems([{ host: 'https://a.example/', requests: 1, per: '1s' }])).toEqual([{ path: '0.host', message: expect.stringContaining('no scheme, no path') }]);
    expect(problems([{ host: 'a.example', requests: 1, per: '1s', burst: 3 }])).toEqual([{ path: '0', message: expect.any(String) }]);
    expect(
      problems([
        { host: 'a.example', requests: 1, per: '1s' },
        { host: 'A.example', requests: 2, per: '1s' },
        { host: 'a.example:443', requests: 2, per: '1s' },
      ]),
    ).toEqual([{ path: '1.host', message: 'a.example has a limit already (at 0): one limit per host' }]);
    expect(problems(Array.from({ length: 101 }, (_, i) => ({ host: `h${i}.example`, requests: 1, per: '1s' })))).toHaveLength(1);
  });

  test("a tool node's rate_limit: bounds checked at save", () => {
    const parse = (rateLimit: unknown) => toolConfigSchema.safeParse({ tool: 'http_request', rate_limit: rateLimit });
    expect(parse({ requests: 10, per: '1s' }).success).toBe(true);
    expect(parse({ requests: 10, per: '1m', key: 'partner' }).success).toBe(true);
    for (const bad of [{ requests: 0, per: '1s' }, { requests: 10, per: '99ms' }, { requests: 10, per: '61m' }, { requests: 10, per: 'soon' }, { requests: 1.5, per: '1s' }, { requests: 1, per: '1s', key: '' }, { per: '1s' }]) {
      expect(parse(bad).success).toBe(false);
    }
  });
});
