import { parseNodeConfig, type RepeatConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { unwrapTemplate } from './conditions';
import { templateReferenceProblems, type ReferenceScope } from './references';
import { subworkflowBody } from './subworkflowBody';
import { toolBodyProblems } from './toolBody';
import type { SubworkflowReference, ValidationEnv } from './types';

/** What a repeat binds for its template and conditions: the previous iteration's output and its index. */
export const REPEAT_LOCALS: ReadonlySet<string> = new Set(['last', 'last_index']);

/**
 * A repeat node: one of `while` (checked before each iteration) or `until` (after), each valid CEL whose names are
 * checked with `last` bound, and a template that is a valid tool or subworkflow call with those locals in scope.
 */
export function repeatNodeChecks(
  scope: ReferenceScope,
  env: ValidationEnv,
  nodeId: string,
  config: RepeatConfig,
  base: string,
): { problems: Problem[]; subworkflows: SubworkflowReference[] } {
  const problems: Problem[] = [];
  if ((config.while === undefined) === (config.until === undefined)) {
    problems.push({ path: `${base}.config`, problem: 'give one of while (checked before each iteration) or until (checked after)' });
  }
  for (const [field, text] of [['while', config.while], ['until', config.until]] as const) {
    if (text === undefined) continue;
    const path = `${base}.config.${field}`;
    const expression = unwrapTemplate(text);
    for (const problem of env.expressionProblems(expression)) problems.push({ path, problem });
    problems.push(
      ...templateReferenceProblems(scope, env, nodeId, `\${${expression}}`, path, REPEAT_LOCALS),
      ...misplacedSecretReferenceProblems(text, path, 'repeat conditions'),
    );
  }
  const tp = `${base}.config.template`;
  const parsed = parseNodeConfig({ type: config.template.type, config: config.template.config }, tp);
  if (!parsed.ok) return { problems: [...problems, ...parsed.problems], subworkflows: [] };
  if (parsed.value.type === 'tool') {
    const tc = parsed.value.config;
    const bindings = tc.inputs.map((binding, i) => ({ binding, fromPath: `${tp}.config.inputs[${i}].from` }));
    problems.push(...toolBodyProblems(scope, env, nodeId, tc, bindings, `${tp}.config`, REPEAT_LOCALS));
    return { problems, subworkflows: [] };
  }
  if (parsed.value.type === 'subworkflow') {
    const body = subworkflowBody(scope, env, nodeId, parsed.value.config, `${tp}.config`, REPEAT_LOCALS);
    return { problems: [...problems, ...body.problems], subworkflows: [body.reference] };
  }
  return { problems, subworkflows: [] };
}
