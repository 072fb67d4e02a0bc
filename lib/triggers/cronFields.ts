/**
 * The fields of a cron expression checked one by one, so a bad value is refused with the field's name and what it
 * takes ("day of week 8 is out of range 0–7 (0 and 7 are Sunday)") instead of the parser's wording ("Constraint
 * error, got value 8 expected range 0-7"). Runs after the character checks of cron.ts: every item is a number, `*`
 * or a name, in lists, ranges and steps.
 */

interface CronField {
  name: string;
  min: number;
  max: number;
  /** names the field takes besides numbers, in the order of their values from `min` */
  names?: readonly string[];
  /** said after the range when a value is out of it */
  note?: string;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

const SECOND: CronField = { name: 'second', min: 0, max: 59 };
const FIVE_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES, note: ' (or jan–dec)' },
  { name: 'day of week', min: 0, max: 7, names: DAY_NAMES, note: ' (0 and 7 are Sunday)' },
];

/** The fields of a 5- or 6-field expression, in order (seconds first in 6). */
function cronFieldsOf(count: number): readonly CronField[] {
  return count === 6 ? [SECOND, ...FIVE_FIELDS] : FIVE_FIELDS;
}

/** A value of the field (a number or one of its names), or the problem with it. */
function valueOf(field: CronField, text: string): number | string {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n < field.min || n > field.max ? `${field.name} ${n} is out of range ${field.min}–${field.max}${field.note ?? ''}` : n;
  }
  const index = field.names?.indexOf(text.toLowerCase()) ?? -1;
  if (index >= 0) return field.min + index;
  return field.names
    ? `${field.name} "${text}" is not one of its names (${field.names[0]}–${field.names.at(-1)})`
    : `${field.name} "${text}": only numbers are allowed here`;
}

/** The problem with one field's text (a list of `*`, values or ranges, each with an optional step), or null. */
function fieldProblem(field: CronField, text: string): string | null {
  for (const item of text.split(',')) {
    const [base = '', step, ...more] = item.split('/');
    if (more.length) return `${field.name} "${item}" has more than one step`;
    if (step !== undefined && Number(step) === 0) return `${field.name} "${item}": a step is at least 1`;
    if (base === '*') continue;
    const bounds = base.split('-').map((bound) => valueOf(field, bound));
    const problem = bounds.find((b): b is string => typeof b === 'string');
    if (problem) return problem;
    const [low, high] = bounds as number[];
    if (high !== undefined && low! > high) {
      return `${field.name} range "${base}" runs backwards: write the lower bound first (a range does not wrap around)`;
    }
  }
  return null;
}

/** The first field whose value is out of its range, backwards, or a name it does not take; null when all are fine. */
export function cronFieldsProblem(fields: readonly string[]): string | null {
  const specs = cronFieldsOf(fields.length);
  for (const [i, spec] of specs.entries()) {
    const problem = fieldProblem(spec, fields[i]!);
    if (problem) return problem;
  }
  return null;
}
