import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * LanceDB's index builds write temporary folders to $TMPDIR and leave them. A process points $TMPDIR at its folder in
 * the scratch dir once at start-up; the store removes what each build left and never touches process.env. Proved in
 * a process of its own: a Jest sandbox's process.env is a copy that native code does not see.
 */
test('index builds write their temporary folders to the scratch dir, cleaned after; search and index calls leave process.env alone', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-vectors-tmpdir-'));
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, '../fixtures/vectors/buildInScratch.ts'), dir], {
      cwd: path.join(__dirname, '../..'),
      encoding: 'utf8',
    });
    const result = JSON.parse(out) as { tmpdir: string; tempDir: string; writes: string[]; removed: string[]; remaining: string[]; hits: number[] };
    expect(result.tempDir.startsWith(path.join(dir, 'scratch') + path.sep)).toBe(true);
    expect(result.tmpdir).toBe(result.tempDir);
    expect(result.removed.length).toBeGreaterThan(0);
    expect(result.removed.every((name) => name.startsWith('.tmp'))).toBe(true);
    // What remains is LanceDB's live session folder (removed when the process ends), not a build's leftovers.
    expect(result.remaining.filter((name) => result.removed.includes(name))).toEqual([]);
    expect(result.writes).toEqual([]);
    expect(result.hits).toEqual([5, 5]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
