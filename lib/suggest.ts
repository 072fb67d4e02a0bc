/**
 * "Did you mean": the known name closest to a mistyped one, for error messages (unknown tools, fields, keys).
 * Pure and dependency-free: lib/dag (bundled into workflow code) uses it.
 */

/** Edit distance with adjacent transpositions (optimal string alignment): `nmae` -> `name` is 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate a person most likely meant by `input`, or null when none is close enough to be a useful hint:
 * the same name in another case or with `-`/`_` swapped wins outright; otherwise the nearest by edit distance,
 * within a third of the longer name (at least 1, at most 3). Ties go to the first candidate given.
 */
export function closestName(input: string, candidates: Iterable<string>): string | null {
  const normalised = normalise(input);
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    if (normalise(candidate) === normalised) return candidate;
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(input.length, candidate.length) / 3)));
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` or the empty string: appended to a problem text. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestName(input, candidates);
  return match === null ? '' : ` (did you mean "${match}"?)`;
}

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}
