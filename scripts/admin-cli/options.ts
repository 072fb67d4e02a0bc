/** Small helpers of the operator CLI: flag parsing that fails with one clear line, and plain-text tables. */

/** Bad usage: `runAdmin` prints the message with the command's usage on one line and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requireUuid(what: string, value: string | undefined): string {
  if (!value || !UUID.test(value)) throw new UsageError(`${what} must be a UUID, got "${value ?? ''}"`);
  return value;
}

/**
 * Parses `--name value` flags (no positionals allowed). `spec` maps each accepted flag to a parser of its value;
 * an unknown flag, a missing value or a repeated flag is a UsageError.
 */
export function parseFlags<T extends Record<string, (value: string) => unknown>>(
  args: string[],
  spec: T,
): { [K in keyof T]?: ReturnType<T[K]> } {
  const result: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i]!;
    const name = flag.startsWith('--') ? flag.slice(2) : '';
    const parse = Object.prototype.hasOwnProperty.call(spec, name) ? spec[name] : undefined;
    if (!parse) throw new UsageError(`unexpected argument "${flag}"`);
    if (name in result) throw new UsageError(`${flag} given twice`);
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    result[name] = parse(value);
  }
  return result as { [K in keyof T]?: ReturnType<T[K]> };
}

export function positiveInt(max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max) throw new UsageError(`--limit must be an integer from 1 to ${max}, got "${value}"`);
    return n;
  };
}

/** A flag whose value is one of a fixed list (a status, a kind). */
export function oneOf<T extends string>(flag: string, values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${values.join(', ')}, got "${value}"`);
    return value as T;
  };
}

/** Left-aligned columns with a header row; cells are single-line. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const clean = (cell: string) => cell.replace(/\s+/g, ' ');
  const all = [header, ...rows.map((r) => r.map(clean))];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

export const iso = (value: Date | string | null | undefined): string => (value ? new Date(value).toISOString() : '-');

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
