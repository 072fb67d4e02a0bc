/**
 * A line diff (Myers' O((N+M)·D) algorithm) for showing what changed between two workflow versions. Pure: the console
 * runs it in the browser; unit tests run it here. Work is bounded by `maxEdits`: past it the answer says so instead of
 * spending quadratic time on two unrelated texts.
 */

export type DiffLine =
  | { kind: 'same'; text: string; oldLine: number; newLine: number }
  | { kind: 'removed'; text: string; oldLine: number }
  | { kind: 'added'; text: string; newLine: number };

export type LineDiff = { tooLarge: false; lines: DiffLine[]; added: number; removed: number } | { tooLarge: true };

export const DEFAULT_MAX_EDITS = 2000;

export function diffLines(oldText: string, newText: string, maxEdits = DEFAULT_MAX_EDITS): LineDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // Common head and tail cost nothing and are the usual case (a version changes a few lines).
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail), maxEdits);
  if (!middle) return { tooLarge: true };

  const lines: DiffLine[] = [];
  for (let i = 0; i < head; i++) lines.push({ kind: 'same', text: a[i]!, oldLine: i + 1, newLine: i + 1 });
  let oldLine = head;
  let newLine = head;
  let added = 0;
  let removed = 0;
  for (const op of middle) {
    if (op.kind === 'same') {
      lines.push({ kind: 'same', text: op.text, oldLine: ++oldLine, newLine: ++newLine });
    } else if (op.kind === 'removed') {
      lines.push({ kind: 'removed', text: op.text, oldLine: ++oldLine });
      removed++;
    } else {
      lines.push({ kind: 'added', text: op.text, newLine: ++newLine });
      added++;
    }
  }
  for (let i = a.length - tail; i < a.length; i++) lines.push({ kind: 'same', text: a[i]!, oldLine: ++oldLine, newLine: ++newLine });
  return { tooLarge: false, lines, added, removed };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

type Op = { kind: 'same' | 'removed' | 'added'; text: string };

/** Shortest edit script of a → b, or null when it needs more than maxEdits insertions and deletions. */
function myers(a: string[], b: string[], maxEdits: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  // v[k + offset]: the furthest x reached on diagonal k. Before each step d, the diagonals -d-1..d+1 are kept (the
  // path is walked back through them): memory grows with D², which maxEdits bounds (2,000 edits: about 16 MB).
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[k - 1 + offset]! < v[k + 1 + offset]!);
      let x = down ? v[k + 1 + offset]! : v[k - 1 + offset]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + offset] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], dFinal: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dFinal; d > 0; d--) {
    const before = trace[d]!; // diagonal k is before[k + d + 1]
    const k = x - y;
    const down = k === -d || (k !== d && before[k + d]! < before[k + d + 2]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = before[prevK + d + 1]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: 'same', text: a[--x]! });
      y--;
    }
    if (down) ops.push({ kind: 'added', text: b[--y]! });
    else ops.push({ kind: 'removed', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: 'same', text: a[--x]! });
    y--;
  }
  return ops.reverse();
}
