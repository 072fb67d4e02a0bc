import type { SwitchConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { unwrapTemplate } from './conditions';
import { expressionReferenceProblems, type ReferenceScope } from './references';
import type { ValidationEnv } from './types';

/** The nodes a switch leads to: each case's `next`, then its `default`. */
export function switchTargets(config: Pick<SwitchConfig, 'cases' | 'default'>): string[] {
  return [...config.cases.map((c) => c.next), ...(config.default ? [config.default] : [])];
}

/** The switch's CEL expressions with their paths: its `value`, or each case's `when`. */
function expressionsOf(config: SwitchConfig, base: string): { expression: string; path: string }[] {
  const out = config.value === undefined ? [] : [{ expression: config.value, path: `${base}.config.value` }];
  config.cases.forEach((c, i) => {
    if (c.when !== undefined) out.push({ expression: c.when, path: `${base}.config.cases[${i}].when` });
  });
  return out;
}

/**
 * A switch's shape against the graph: one mode for all its cases (`value` with an `equals` in every case, or a
 * `when` in every case), targets that are other nodes of the graph, and expressions that are valid CEL.
 */
export function switchProblems(
  nodeId: string,
  config: SwitchConfig,
  base: string,
  mentionedIds: ReadonlySet<string>,
  env: Pick<ValidationEnv, 'expressionProblems'>,
): Problem[] {
  const problems: Problem[] = [];
  const byValue = config.value !== undefined;
  config.cases.forEach((c, i) => {
    const path = `${base}.config.cases[${i}]`;
    const hasEquals = Object.hasOwn(c, 'equals');
    if (byValue && !hasEquals) problems.push({ path: `${path}.equals`, problem: 'required: the switch has a `value`, so each case matches a value' });
    if (byValue && c.when !== undefined) problems.push({ path: `${path}.when`, problem: 'not used when the switch has a `value`: give `equals` instead' });
    if (!byValue && c.when === undefined) problems.push({ path: `${path}.when`, problem: 'required: without a `value`, each case is a condition (or give the switch a `value` and the cases `equals`)' });
    if (!byValue && hasEquals) problems.push({ path: `${path}.equals`, problem: 'only used with the switch\'s `value`' });
  });
  const targets: [string, string][] = [
    ...config.cases.map((c, i): [string, string] => [`${base}.config.cases[${i}].next`, c.next]),
    ...(config.default ? [[`${base}.config.default`, config.default] as [string, string]] : []),
  ];
  for (const [path, target] of targets) {
    if (!mentionedIds.has(target)) problems.push({ path, problem: `"${target}" is not a node of the graph` });
    else if (target === nodeId) problems.push({ path, problem: 'a switch cannot lead to itself' });
  }
  for (const { expression, path } of expressionsOf(config, base)) {
    for (const problem of env.expressionProblems(unwrapTemplate(expression))) problems.push({ path, problem });
  }
  return problems;
}

/** The names its expressions use are checked like any template's; secrets are refused there (as in conditions). */
export function switchReferenceProblems(scope: ReferenceScope, env: ValidationEnv, nodeId: string, config: SwitchConfig, base: string): Problem[] {
  return expressionsOf(config, base).flatMap(({ expression, path }) => [
    ...expressionReferenceProblems(scope, env, nodeId, unwrapTemplate(expression), path, new Set()),
    ...misplacedSecretReferenceProblems(expression, path, 'switches'),
  ]);
}
