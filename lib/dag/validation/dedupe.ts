import type { Problem } from '../problems';

/** Problems without repeats (the same path and text found by two checks), first occurrence kept, order kept. */
export function dedupeProblems(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.problem}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
