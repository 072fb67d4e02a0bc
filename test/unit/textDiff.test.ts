import { diffLines, type DiffLine } from '../../lib/textDiff';

/** Rebuilds both texts from a diff: every diff must give back exactly what it compared. */
function sides(lines: DiffLine[]): { before: string[]; after: string[] } {
  return {
    before: lines.filter((l) => l.kind !== 'added').map((l) => l.text),
    after: lines.filter((l) => l.kind !== 'removed').map((l) => l.text),
  };
}

describe('diffLines', () => {
  it('marks one changed line between two versions', () => {
    const result = diffLines('a\nb\nc\n', 'a\nB\nc\n');
    expect(result).toEqual({
      tooLarge: false,
      added: 1,
      removed: 1,
      lines: [
        { kind: 'same', text: 'a', oldLine: 1, newLine: 1 },
        { kind: 'removed', text: 'b', oldLine: 2 },
        { kind: 'added', text: 'B', newLine: 2 },
        { kind: 'same', text: 'c', oldLine: 3, newLine: 3 },
      ],
    });
  });

  it('finds the shortest script for interleaved changes and numbers lines on both sides', () => {
    const before = ['a', 'b', 'c', 'a', 'b', 'b', 'a'];
    const after = ['c', 'b', 'a', 'b', 'a', 'c'];
    const result = diffLines(before.join('\n'), after.join('\n'));
    if (result.tooLarge) throw new Error('unexpected');
    // Myers' classic example: 5 edits.
    expect(result.added + result.removed).toBe(5);
    expect(sides(result.lines)).toEqual({ before, after });
    const oldNumbers = result.lines.flatMap((l) => ('oldLine' in l ? [l.oldLine] : []));
    expect(oldNumbers).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('handles empty sides', () => {
    expect(diffLines('', '')).toEqual({ tooLarge: false, lines: [], added: 0, removed: 0 });
    const added = diffLines('', 'x\ny');
    expect(added).toMatchObject({ added: 2, removed: 0 });
    const removed = diffLines('x\ny', '');
    expect(removed).toMatchObject({ added: 0, removed: 2 });
  });

  it('rebuilds both sides of random edits with a minimal-size script', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const before = Array.from({ length: random(30) }, () => String.fromCharCode(97 + random(4)));
      const after = before.filter(() => random(5) > 0);
      for (let i = 0; i < random(5); i++) after.splice(random(after.length + 1), 0, 'z');
      const result = diffLines(before.join('\n'), after.join('\n'));
      if (result.tooLarge) throw new Error('unexpected');
      expect(sides(result.lines)).toEqual({ before, after });
      // Never worse than deleting everything and adding everything.
      expect(result.added + result.removed).toBeLessThanOrEqual(before.length + after.length);
    }
  });

  it('gives up past the edit bound instead of spending quadratic time', () => {
    const before = Array.from({ length: 500 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 500 }, (_, i) => `new ${i}`).join('\n');
    expect(diffLines(before, after, 999)).toEqual({ tooLarge: true });
    expect(diffLines(before, after, 1000)).toMatchObject({ tooLarge: false, added: 500, removed: 500 });
  });
});
