import { triggerSchema, type Trigger } from '../model';
import { zodProblems } from '../nodeConfig';
import type { Problem } from '../problems';
import { triggerProblems } from '../triggers';
import type { Checked, ValidationEnv } from './types';

/**
 * The triggers: each one's shape and basic config checks, then the env's deeper checks of the well-shaped ones. A
 * field the basic checks already reported is not reported twice.
 */
export function checkTriggers(raw: unknown, env: Pick<ValidationEnv, 'triggerProblems'>): Checked<Trigger[]> {
  const list = raw ?? [];
  if (!Array.isArray(list)) return { value: [], problems: [{ path: 'triggers', problem: 'must be an array' }] };
  const problems: Problem[] = [];
  const triggers: Trigger[] = [];
  const checked: { trigger: Trigger; path: string; index: number }[] = [];
  const basePaths = new Set<string>();
  list.forEach((item, index) => {
    const path = `triggers[${index}]`;
    const parsed = triggerSchema.safeParse(item);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, path, triggerSchema));
      return;
    }
    const base = triggerProblems(parsed.data, path);
    for (const p of base) basePaths.add(p.path);
    problems.push(...base);
    triggers.push(parsed.data);
    checked.push({ trigger: parsed.data, path, index });
  });
  problems.push(...(env.triggerProblems?.(checked) ?? []).filter((p) => !basePaths.has(p.path)));
  return { value: triggers, problems };
}
