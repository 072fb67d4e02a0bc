const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Parses the duration forms the configuration uses ("15m", "7d", "30s", "1h30m", "250ms") into milliseconds.
 * A bare number is taken as seconds, like the spec's `expiresIn`.
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const part = /(\d+)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = part.exec(trimmed)) !== null) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = part.lastIndex;
  }
  if (consumed === 0 || consumed !== trimmed.length) {
    throw new Error(`"${text}" is not a duration (use forms like 250ms, 30s, 15m, 1h, 7d)`);
  }
  return total;
}
