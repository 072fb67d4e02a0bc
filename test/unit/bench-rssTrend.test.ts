import { judgeRssTrends, rssTrend, type RssSeries } from '../../bench/lib/rss';

/** 30 minutes sampled every 5 s, `mbAt(minute)` each. */
function series(mbAt: (minute: number) => number): RssSeries {
  const samples = Array.from({ length: 361 }, (_, i) => ({ minute: i / 12, mb: mbAt(i / 12), processes: 1 }));
  return { name: 'p', churns: false, samples };
}

describe('rssTrend', () => {
  it('fits a steady growth over the whole run and over its second half alike', () => {
    const trend = rssTrend(series((m) => 100 + 2 * m), 1);
    expect(trend.slope).toBeCloseTo(2, 3);
    expect(trend.secondHalfSlope).toBeCloseTo(2, 3);
    expect(trend.flat).toBe(false);
  });

  it('tells a series that settled (growth, then a plateau) by its second half', () => {
    // +4 MB/min for 15 minutes, then flat: the whole fit is steep, the second half is not.
    const trend = rssTrend(series((m) => 250 + 4 * Math.min(m, 15)), 1);
    expect(trend.slope).toBeGreaterThan(1);
    expect(trend.flat).toBe(false);
    expect(Math.abs(trend.secondHalfSlope)).toBeLessThan(0.5);
  });

  it('drops the warm-up share before fitting', () => {
    // A jump in the first 10% only: flat afterwards.
    const trend = rssTrend(series((m) => (m < 2 ? 50 : 200)), 1);
    expect(trend.slope).toBeCloseTo(0, 6);
    expect(trend.flat).toBe(true);
    expect(trend.firstMb).toBe(200);
  });
});

describe('judgeRssTrends', () => {
  /** A churning group sampled with no process in it (the API's sandbox children when no request needed one). */
  const empty: RssSeries = { name: 'api children', churns: true, samples: Array.from({ length: 361 }, (_, i) => ({ minute: i / 12, mb: 0, processes: 0, byPid: {} })) };

  it('does not fail a churning group with no process alive throughout, and names the worst judged slope', () => {
    const trends = [rssTrend(series((m) => 100 + 0.3 * m), 1), rssTrend({ ...series((m) => 200 - 0.5 * m), name: 'q' }, 1), rssTrend(empty, 1)];
    expect(trends[2]).toMatchObject({ processesThroughout: 0, flat: false });
    expect(judgeRssTrends(trends)).toMatchObject({ met: true, judged: 2, worst: { name: 'q' } });
  });

  it('fails a process that grew, and a trend without a slope that is not such a group', () => {
    expect(judgeRssTrends([rssTrend(series((m) => 100 + 2 * m), 1), rssTrend(empty, 1)]).met).toBe(false);
    expect(judgeRssTrends([rssTrend({ name: 'api', churns: false, samples: [] }, 1)]).met).toBe(false);
    expect(judgeRssTrends([rssTrend(empty, 1)]).met).toBe(false); // nothing judged at all
  });
});
