import type { ConditionConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import type { ValidationEnv } from './types';

/** `${expr}` written around a condition is accepted: conditions are CEL either way. */
export function unwrapTemplate(expression: string): string {
  const t = expression.trim();
  if (t.startsWith('${') && t.endsWith('}') && t.indexOf('${', 2) === -1) return t.slice(2, -1).trim();
  return t;
}

/** A condition's branches are other nodes of the graph (one at least), and its expression is valid CEL. */
export function conditionProblems(
  nodeId: string,
  config: ConditionConfig,
  base: string,
  mentionedIds: ReadonlySet<string>,
  env: Pick<ValidationEnv, 'expressionProblems'>,
): Problem[] {
  const problems: Problem[] = [];
  const { trueBranch, falseBranch, expression } = config;
  for (const [field, target] of [
    ['trueBranch', trueBranch],
    ['falseBranch', falseBranch],
  ] as const) {
    if (target === undefined) continue;
    if (!mentionedIds.has(target)) {
      problems.push({ path: `${base}.config.${field}`, problem: `"${target}" is not a node of the graph` });
    } else if (target === nodeId) {
      problems.push({ path: `${base}.config.${field}`, problem: 'a condition cannot branch to itself' });
    }
  }
  if (!trueBranch && !falseBranch) {
    problems.push({ path: `${base}.config`, problem: 'a condition needs trueBranch, falseBranch or both' });
  }
  for (const problem of env.expressionProblems(unwrapTemplate(expression))) {
    problems.push({ path: `${base}.config.expression`, problem });
  }
  return problems;
}
