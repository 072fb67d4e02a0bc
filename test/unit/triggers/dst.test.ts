import { dstDecision, gapSpecs, gapsBetween, isRepeatedWallTime, wallTimeOf } from '../../../lib/triggers/dst';

/** Schedules across daylight-saving changes: the gaps and repeats of real zones, and what fires. */

const NOW = new Date('2026-01-01T00:00:00Z');
const YEAR_END = new Date('2027-01-01T00:00:00Z');
const NY = 'America/New_York';

describe('gaps', () => {
  test('New York skips 02:00-03:00 on the second Sunday of March; Lord Howe half an hour; UTC never', () => {
    expect(gapsBetween(NY, NOW, YEAR_END)).toEqual([{ start: '2026-03-08T02:00:00', end: '2026-03-08T03:00:00' }]);
    expect(gapsBetween('Australia/Lord_Howe', NOW, YEAR_END)).toEqual([{ start: '2026-10-04T02:00:00', end: '2026-10-04T02:30:00' }]);
    expect(gapsBetween('Europe/Berlin', NOW, YEAR_END)).toEqual([{ start: '2026-03-29T02:00:00', end: '2026-03-29T03:00:00' }]);
    expect(gapsBetween('UTC', NOW, YEAR_END)).toEqual([]);
  });

  test("the extra spec fires the gap's length after each time the cron names in a gap, on its months and weekdays only", () => {
    expect(gapSpecs('30 2 * * *', NY, NOW)).toEqual(['30 3 * 3 0']);
    expect(gapSpecs('0 2 * * *', 'Australia/Lord_Howe', NOW)).toEqual(['30 2 * 10 0']);
    expect(gapSpecs('10,40 2 * * *', NY, NOW)).toEqual(['10 3 * 3 0', '40 3 * 3 0']);
    expect(gapSpecs('15 2 * * 1-5', NY, NOW)).toEqual([]); // the gap is on a Sunday: a weekday cron never falls in it
    expect(gapSpecs('30 1 * * *', NY, NOW)).toEqual([]);
    expect(gapSpecs('*/15 * * * *', 'Europe/Berlin', NOW)).toEqual([]); // 03:00-03:45 fire anyway
    expect(gapSpecs('5 30 2 * * *', NY, NOW)).toEqual(['5 30 3 * 3 0']); // seconds first
    expect(gapSpecs('30 2 * * *', 'UTC', NOW)).toEqual([]);
  });
});

describe('what fires', () => {
  test('spring forward: the gap spec runs on the day the cron fell in the gap, not on other Sundays of March', () => {
    expect(dstDecision('30 2 * * *', NY, new Date('2026-03-08T07:30:00Z'), 'adjust', null)).toEqual({ run: true, wall: '2026-03-08T03:30:00', moved: true });
    expect(dstDecision('30 2 * * *', NY, new Date('2026-03-15T07:30:00Z'), 'adjust', null)).toMatchObject({ run: false, reason: 'dst_no_gap_firing' });
    expect(dstDecision('30 2 * * *', NY, new Date('2026-03-15T06:30:00Z'), 'adjust', null)).toEqual({ run: true, wall: '2026-03-15T02:30:00', moved: false });
  });

  test('fall back: the repeated wall time is known as such, and runs once', () => {
    const first = new Date('2026-11-01T05:30:00Z'); // 01:30 EDT
    const second = new Date('2026-11-01T06:30:00Z'); // 01:30 EST
    expect(wallTimeOf(first, NY)).toBe(wallTimeOf(second, NY));
    expect(isRepeatedWallTime(NY, first)).toBe(false);
    expect(isRepeatedWallTime(NY, second)).toBe(true);
    const ran = dstDecision('30 1 * * *', NY, first, 'adjust', '2026-10-31T01:30:00');
    expect(ran).toEqual({ run: true, wall: '2026-11-01T01:30:00', moved: false });
    expect(dstDecision('30 1 * * *', NY, second, 'adjust', ran.wall)).toMatchObject({ run: false, reason: 'dst_repeat' });
  });

  test('exact follows the cron; a firing triggered by hand always runs', () => {
    expect(dstDecision('30 1 * * *', NY, new Date('2026-11-01T06:30:00Z'), 'exact', '2026-11-01T01:30:00')).toMatchObject({ run: true });
    expect(dstDecision('30 2 * * *', NY, new Date('2026-03-15T16:12:07Z'), 'adjust', null)).toEqual({ run: true, wall: '2026-03-15T12:12:07', moved: false });
  });
});
