import { z } from 'zod';

/**
 * Timestamps from clients that reach PostgreSQL. zod's ISO check takes the year 0000, which PostgreSQL does not
 * have (22008, a 500 before this), and a list cursor is whatever text the client sends back.
 */

/** An offset PostgreSQL takes: at most 15 hours (zod's ISO check takes up to 23:59; PostgreSQL answers 22009). */
const OFFSET_HOURS = /([+-])(\d{2})(?::?\d{2})?$/;

/** ISO 8601 date-time with an offset (`Z` or `±hh:mm` up to ±15:59), year 0001 or later. */
export const isoTimestamp = () =>
  z.iso
    .datetime({ offset: true })
    .refine((value) => Number(value.slice(0, 4)) >= 1, { message: 'the year must be 0001 or later' })
    .refine((value) => Number(OFFSET_HOURS.exec(value)?.[2] ?? 0) <= 15, { message: 'the offset must be at most 15 hours' });

/**
 * The timestamp texts our cursors carry, strictly: ISO (`2026-11-27T22:45:55.123456Z`) or PostgreSQL's own text
 * (`2026-11-27 22:45:55.123456+00`), each field in its range, so PostgreSQL's cast cannot refuse it.
 */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2}))?)$/;

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export function isCursorTimestamp(text: string): boolean {
  const m = TIMESTAMP.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m.slice(1).map((field) => Number(field ?? 0));
  const daysInMonth = [31, isLeap(year!) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month! - 1];
  return (
    year! >= 1 &&
    daysInMonth !== undefined &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    offsetHours! <= 15 &&
    offsetMinutes! <= 59
  );
}
