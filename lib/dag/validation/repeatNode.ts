import type { RepeatConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { unwrapTemplate } from './conditions';
import { expressionReferenceProblems, type ReferenceScope } from './references';
import { templateChecks } from './loopNode';
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
      ...expressionReferenceProblems(scope, env, nodeId, expression, path, REPEAT_LOCALS),
      ...misplacedSecretReferenceProblems(text, path, 'repeat conditions'),
    );
  }
  const body = templateChecks(scope, env, nodeId, config.template, `${base}.config.template`, REPEAT_LOCALS);
  return { problems: [...problems, ...body.problems], subworkflows: body.subworkflows };
}
