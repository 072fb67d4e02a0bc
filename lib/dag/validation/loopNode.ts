import { parseNodeConfig, type LoopConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { RESERVED_NAMES } from '../references';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { loopItemsProblems, type ReferenceScope } from './references';
import { subworkflowBody } from './subworkflowBody';
import { toolBodyProblems } from './toolBody';
import type { SubworkflowReference, ValidationEnv } from './types';

/**
 * The item is bound under the iterator's name and its position as `<iterator>_index` (`loop` is a reserved word in
 * CEL, so `loop.index` cannot be written).
 */
export function loopLocals(iterator: string): Set<string> {
  return new Set([iterator, `${iterator}_index`]);
}

/**
 * A loop node: an iterator that shadows no node or reserved name, items that name a list, and a template that is a
 * valid tool or subworkflow call with the loop's locals in scope.
 */
export function loopNodeChecks(
  scope: ReferenceScope,
  env: ValidationEnv,
  nodeId: string,
  config: LoopConfig,
  base: string,
  nodeIds: ReadonlySet<string>,
): { problems: Problem[]; subworkflows: SubworkflowReference[] } {
  const { items, iterator, template } = config;
  const problems: Problem[] = [];
  if (RESERVED_NAMES.has(iterator) || nodeIds.has(iterator)) {
    problems.push({ path: `${base}.config.iterator`, problem: `"${iterator}" is already a node id or a reserved name` });
  }
  problems.push(...loopItemsProblems(scope, env, nodeId, items, `${base}.config.items`));
  problems.push(...misplacedSecretReferenceProblems(items, `${base}.config.items`, 'loop items'));
  const body = templateChecks(scope, env, nodeId, template, `${base}.config.template`, loopLocals(iterator));
  return { problems: [...problems, ...body.problems], subworkflows: body.subworkflows };
}

/**
 * A template run per item (loop) or per iteration (repeat): a valid tool or subworkflow call with the node's
 * `locals` in scope. `tp` is the template's path in problems.
 */
export function templateChecks(
  scope: ReferenceScope,
  env: ValidationEnv,
  nodeId: string,
  template: LoopConfig['template'],
  tp: string,
  locals: ReadonlySet<string>,
): { problems: Problem[]; subworkflows: SubworkflowReference[] } {
  const parsed = parseNodeConfig({ type: template.type, config: template.config }, tp);
  if (!parsed.ok) return { problems: parsed.problems, subworkflows: [] };
  if (parsed.value.type === 'tool') {
    const tc = parsed.value.config;
    const bindings = tc.inputs.map((binding, i) => ({ binding, fromPath: `${tp}.config.inputs[${i}].from` }));
    return { problems: toolBodyProblems(scope, env, nodeId, tc, bindings, `${tp}.config`, locals), subworkflows: [] };
  }
  if (parsed.value.type === 'subworkflow') {
    const body = subworkflowBody(scope, env, nodeId, parsed.value.config, `${tp}.config`, locals);
    return { problems: body.problems, subworkflows: [body.reference] };
  }
  return { problems: [], subworkflows: [] };
}
