import { rssTrend, type RssSeries } from '../../bench/lib/rss';

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
