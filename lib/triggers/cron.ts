import { CronExpressionParser } from 'cron-parser';
import { cronFieldsProblem } from './cronFields';

/**
 * Cron and time zone checks for schedule triggers. cron-parser does the parsing (and DST-correct next times for
 * previews); Temporal Schedules do the firing. Only the syntax both understand is accepted: 5 fields
 * (minute hour day-of-month month day-of-week) or 6 with seconds first; numbers, `*`, ranges, steps, lists and
 * month/day names. `L`, `W`, `#` and `?` are refused because Temporal's cron dialect does not read them the same way.
 */
const FIELD = /^[0-9A-Za-z*,/-]+$/;
/** One value of a field: a number, `*`, or a month/day name (no `L`, `W`, `#`, `?`). */
const TOKEN = /^(\d+|\*|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)$/i;

export function isTimeZone(zone: string): boolean {
  if (zone === 'UTC') return true;
  try {
    // Intl throws RangeError for unknown zones; supportedValuesOf lists canonical names only (aliases also work).
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A problem text, or null when the expression is valid. */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return 'a cron expression has 5 fields (or 6 with seconds first)';
  const bad = fields.find((f) => !FIELD.test(f) || f.split(/[,/-]/).some((token) => !TOKEN.test(token)));
  if (bad !== undefined) return `unsupported cron field "${bad}" (use numbers, *, ranges, steps, lists and names)`;
  const fieldProblem = cronFieldsProblem(fields);
  if (fieldProblem) return `invalid cron expression: ${fieldProblem}`;
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' }).next();
    return null;
  } catch (err) {
    return `invalid cron expression: ${parserProblem(fields, (err as Error).message)}`;
  }
}

/** What the parser refused once every field is in range, in our words where we know the case. */
function parserProblem(fields: readonly string[], message: string): string {
  // The parser's text for a day of month that no month of the expression has (30 in February, 31 in April).
  if (/invalid explicit day of month/i.test(message)) {
    const [dayOfMonth, month] = fields.slice(-3, -1);
    return `day of month ${dayOfMonth} never occurs in month ${month}: the schedule would never fire`;
  }
  return message;
}

/** The next `count` fire times after `from` in the zone (daylight-saving aware), for previews. */
export function nextCronTimes(expression: string, timezone: string, count: number, from = new Date()): string[] {
  const parsed = CronExpressionParser.parse(expression, { tz: timezone, currentDate: from });
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(parsed.next().toDate().toISOString());
  return out;
}

/**
 * Temporal's cron strings read 6 fields as "... day-of-week year" and 7 as "second ... year"; ours read 6 as
 * "second minute hour dom month dow". Five fields pass through; six gain a `*` year.
 */
export function toTemporalCron(expression: string): string {
  const fields = expression.trim().split(/\s+/);
  return fields.length === 6 ? [...fields, '*'].join(' ') : fields.join(' ');
}
