/**
 * "Did you mean": the known name closest to a mistyped one, for error messages (unknown tools, fields, keys).
 * Pure and dependency-free: lib/dag (bundled into workflow code) uses it.
 *
 * Bounded by input size before any work: the hint runs on the API's event loop for every unknown name of a request,
 * and an unbounded edit distance (a matrix of both lengths) over a 1 MB name and a few candidates held the loop for
 * seconds. Names longer than MAX_HINT_NAME_CHARS get no hint (nobody mistypes a 65-character name into a known
 * one), candidates whose length differs by more than the allowed distance are skipped without computing anything,
 * and one call looks at MAX_HINT_CANDIDATES candidates at most: a call costs at most
 * MAX_HINT_CANDIDATES x MAX_HINT_NAME_CHARS² steps.
 */

/** Names (typed or known) longer than this get no hint. */
export const MAX_HINT_NAME_CHARS = 64;
/** Candidates one hint compares, at most (the first ones given). */
export const MAX_HINT_CANDIDATES = 500;

/**
 * Edit distance with adjacent transpositions (optimal string alignment): `nmae` -> `name` is 1. Three rolling rows,
 * so memory is linear in `b`'s length; callers bound both lengths (closestName does).
 */
export function editDistance(a: string, b: string): number {
  const cols = b.length + 1;
  let before = new Array<number>(cols).fill(0); // row i - 2
  let previous = Array.from({ length: cols }, (_, j) => j); // row i - 1
  let current = new Array<number>(cols).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current[j] = best;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/**
 * The candidate a person most likely meant by `input`, or null when none is close enough to be a useful hint:
 * the same name in another case or with `-`/`_` swapped wins outright; otherwise the nearest by edit distance,
 * within a third of the longer name (at least 1, at most 3). Ties go to the first candidate given. Null for an
 * input longer than MAX_HINT_NAME_CHARS; candidates past MAX_HINT_CANDIDATES or that long are not considered.
 */
export function closestName(input: string, candidates: Iterable<string>): string | null {
  if (input.length > MAX_HINT_NAME_CHARS) return null;
  const normalised = normalise(input);
  const lowered = input.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  let seen = 0;
  for (const candidate of candidates) {
    if (++seen > MAX_HINT_CANDIDATES) break;
    if (candidate === input || candidate.length > MAX_HINT_NAME_CHARS) continue;
    if (normalise(candidate) === normalised) return candidate;
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(input.length, candidate.length) / 3)));
    // The distance is at least the difference in length: no need to compute it when that alone is too far.
    if (Math.abs(input.length - candidate.length) > limit) continue;
    const distance = editDistance(lowered, candidate.toLowerCase());
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
