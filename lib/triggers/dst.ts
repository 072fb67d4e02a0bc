import { CronExpressionParser } from 'cron-parser';

/**
 * Schedules across daylight-saving changes (docs/triggers.md#daylight-saving-time). A cron read in a zone names wall
 * times; on the day the clocks go forward some wall times do not exist, and on the day they go back some happen
 * twice. Temporal fires cron schedules by the letter: the missing time never fires, the repeated one fires twice.
 * The default policy, `adjust`, keeps "once per local time": a firing whose wall time fell in the gap runs as much
 * later as the gap is long (a second cron spec, `gapSpecs`, fires there on the days of the year a gap may occur, and
 * the firing checks that a time of the schedule really fell in that day's gap), and a repeated wall time does not
 * fire again (`dstDecision`, given the latest wall time already fired). `exact` keeps Temporal's behaviour. Pure: Intl only.
 */

export const DST_POLICIES = ['adjust', 'exact'] as const;
export type DstPolicy = (typeof DST_POLICIES)[number];

const MINUTE = 60_000;
/** Offsets and their changes are whole quarter hours in every zone in use. */
const STEP = 15 * MINUTE;

/** A wall time as `YYYY-MM-DDTHH:MM:SS` (sortable as text). */
export type WallTime = string;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall time of an instant in the zone. */
export function wallTimeOf(instant: Date, zone: string): WallTime {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}`;
}

/** A wall time read as if it were UTC: the clock's reading as a number, for arithmetic on readings. */
const reading = (wall: WallTime): number => Date.parse(`${wall}Z`);
const wallOfReading = (ms: number): WallTime => new Date(ms).toISOString().slice(0, 19);

export interface Gap {
  /** the first wall time that does not exist */
  start: WallTime;
  /** the wall time the clock jumps to: the first that exists again */
  end: WallTime;
}

const DAY = 24 * 3600_000;
/** The zone's offset at an instant: its wall reading less the instant. */
const offsetAt = (zone: string, at: number): number => reading(wallTimeOf(new Date(at), zone)) - at;

/**
 * The gaps (clocks going forward) between two instants: the wall times skipped. Offsets are compared a week apart
 * (zones change theirs a few times a year at most), a week whose offset changed is walked in days, and a day whose
 * offset grew in quarter hours: ~250 readings for three years.
 */
export function gapsBetween(zone: string, from: Date, to: Date): Gap[] {
  const gaps: Gap[] = [];
  const start = Math.floor(from.getTime() / STEP) * STEP;
  let offset = offsetAt(zone, start);
  for (let week = start; week < to.getTime(); week += 7 * DAY) {
    const weekLater = offsetAt(zone, week + 7 * DAY);
    if (weekLater === offset) continue;
    for (let day = week; day < week + 7 * DAY && day < to.getTime(); day += DAY) {
      const next = offsetAt(zone, day + DAY);
      if (next > offset) gaps.push(...gapsOfDay(zone, day));
      offset = next;
    }
    offset = weekLater;
  }
  return gaps;
}

/** The gaps within the day from `day`, in quarter hours. */
function gapsOfDay(zone: string, day: number): Gap[] {
  const gaps: Gap[] = [];
  let before = reading(wallTimeOf(new Date(day), zone));
  for (let at = day; at < day + DAY; at += STEP) {
    const after = reading(wallTimeOf(new Date(at + STEP), zone));
    if (after - before > STEP) gaps.push({ start: wallOfReading(before + STEP), end: wallOfReading(after) });
    before = after;
  }
  return gaps;
}

/** Whether the cron (5 or 6 fields) names a wall time in [start, end). Cron read on wall readings, without zone. */
function namesWallTimeIn(cron: string, start: WallTime, end: WallTime): boolean {
  const parsed = CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: new Date(reading(start) - 1000) });
  return parsed.next().toDate().getTime() < reading(end);
}

/** Whether the cron names exactly this wall time. */
function namesWallTime(cron: string, wall: WallTime): boolean {
  return namesWallTimeIn(cron, wall, wallOfReading(reading(wall) + 1000));
}

/**
 * The extra cron specs of the `adjust` policy. A wall time the clocks skip runs as much later as the gap is long
 * (02:30 in a 02:00-03:00 gap runs at 03:30: the same instant as 02:30 in the old offset, as cron-parser's previews,
 * java.time and PostgreSQL resolve it): a spec at each such shifted time over the next `years`, on the months and
 * weekdays the gaps occur (a few firings a year; each checks that its day had the gap). None when the cron never
 * falls in a gap, or when every shifted time is one the cron names anyway.
 */
export function gapSpecs(cron: string, zone: string, now = new Date(), years = 3): string[] {
  // ~6 ms of Intl readings: remembered per cron, zone and day (schedules are synced at every save).
  const key = `${cron}\n${zone}\n${Math.floor(now.getTime() / DAY)}\n${years}`;
  const known = specMemo.get(key);
  if (known) return known;
  const specs = computeGapSpecs(cron, zone, now, years);
  if (specMemo.size >= 500) specMemo.delete(specMemo.keys().next().value!);
  specMemo.set(key, specs);
  return specs;
}

const specMemo = new Map<string, string[]>();

function computeGapSpecs(cron: string, zone: string, now: Date, years: number): string[] {
  const seconds = cron.trim().split(/\s+/).length === 6;
  const byTime = new Map<string, { months: Set<number>; weekdays: Set<number> }>();
  for (const gap of gapsBetween(zone, now, new Date(now.getTime() + years * 366 * DAY))) {
    for (const shifted of shiftedTimes(cron, gap)) {
      if (namesWallTime(cron, shifted)) continue; // that firing happens on its own
      const at = new Date(reading(shifted));
      const key = `${seconds ? `${at.getUTCSeconds()} ` : ''}${at.getUTCMinutes()} ${at.getUTCHours()}`;
      const entry = byTime.get(key) ?? { months: new Set(), weekdays: new Set() };
      entry.months.add(at.getUTCMonth() + 1);
      entry.weekdays.add(at.getUTCDay());
      byTime.set(key, entry);
    }
  }
  const list = (values: Set<number>) => [...values].sort((a, b) => a - b).join(',');
  return [...byTime.entries()].map(([time, { months, weekdays }]) => `${time} * ${list(months)} ${list(weekdays)}`);
}

/** The wall times the cron names in the gap, each moved by the gap's length (at most 120 of them). */
function shiftedTimes(cron: string, gap: Gap): WallTime[] {
  const length = reading(gap.end) - reading(gap.start);
  const parsed = CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: new Date(reading(gap.start) - 1000) });
  const out: WallTime[] = [];
  for (let next = parsed.next().toDate().getTime(); next < reading(gap.end) && out.length < 120; next = parsed.next().toDate().getTime()) {
    out.push(wallOfReading(next + length));
  }
  return out;
}

/** Whether the wall time of `instant` already happened earlier that night (the clocks went back within 3 hours). */
export function isRepeatedWallTime(zone: string, instant: Date): boolean {
  const now = offsetAt(zone, instant.getTime());
  const before = offsetAt(zone, instant.getTime() - 3 * 3600_000);
  if (before <= now) return false;
  return wallTimeOf(new Date(instant.getTime() - (before - now)), zone) === wallTimeOf(instant, zone);
}

export type DstDecision = { run: true; wall: WallTime; moved: boolean } | { run: false; wall: WallTime; reason: 'dst_repeat' | 'dst_no_gap_firing' };

/**
 * Whether a firing at `nominal` runs under the policy. `lastFired`: the latest wall time this schedule already ran
 * (adjust: a wall time of the hour the clocks went back that is not after it is a repeat). A firing at a wall time the cron
 * does not name is a gap spec's when one of them names it: it runs (moved) only when the cron named, that day, the
 * wall time the gap's length earlier, inside the gap. Any other firing at an unnamed time (a schedule triggered by hand) runs.
 */
export function dstDecision(cron: string, zone: string, nominal: Date, policy: DstPolicy, lastFired: WallTime | null): DstDecision {
  const wall = wallTimeOf(nominal, zone);
  if (policy === 'exact') return { run: true, wall, moved: false };
  if (lastFired !== null && wall <= lastFired && isRepeatedWallTime(zone, nominal)) return { run: false, wall, reason: 'dst_repeat' };
  if (namesWallTime(cron, wall)) return { run: true, wall, moved: false };
  const around = new Date(nominal.getTime() - 3 * 366 * DAY);
  const fromGapSpec = gapSpecs(cron, zone, around, 6).some((spec) => namesWallTime(spec, wall));
  if (!fromGapSpec) return { run: true, wall, moved: false };
  // A gap spec's firing: it runs when, that day, the cron named the wall time the gap's length earlier, in the gap.
  for (const gap of gapsBetween(zone, new Date(nominal.getTime() - DAY), new Date(nominal.getTime() + 1))) {
    const meant = wallOfReading(reading(wall) - (reading(gap.end) - reading(gap.start)));
    if (meant >= gap.start && meant < gap.end && namesWallTime(cron, meant)) return { run: true, wall, moved: true };
  }
  return { run: false, wall, reason: 'dst_no_gap_firing' };
}
