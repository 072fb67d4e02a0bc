import type { EvalContext } from '../../lib/runs/types';
import { evalActivities, type ExecEnv, type NodeOutcome } from './execute';
import type { SwitchConfig } from './graph';

/**
 * A switch node: one local activity evaluates its `value` (value mode) or its cases' `when` in order (condition
 * mode) and answers the index of the case taken, or null. The output names the branch taken (the case's `next`,
 * else the `default`, else null); the interpreter then skips every other target (scheduler/branch.ts).
 */
export async function executeSwitch(env: ExecEnv, config: SwitchConfig, context: EvalContext): Promise<NodeOutcome> {
  const chosen = await evalActivities.runEvaluateSwitch({
    organizationId: env.organizationId,
    ...(config.value !== undefined ? { value: config.value } : {}),
    cases: config.cases.map((c) => (Object.hasOwn(c, 'equals') ? { equals: c.equals } : { when: c.when ?? 'false' })),
    context,
  });
  const branch = chosen.case === null ? (config.default ?? null) : config.cases[chosen.case]!.next;
  return { output: { branch, case: chosen.case }, attempts: 1 };
}
