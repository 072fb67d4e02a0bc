import type { SubworkflowConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { templateReferenceProblems, type ReferenceScope } from './references';
import type { SubworkflowReference, ValidationEnv } from './types';

/**
 * A subworkflow call's body, in a subworkflow node or a loop template: the templates of its inputs (with `locals` in
 * scope; secret references are refused there), and the child workflow it names, which the caller resolves.
 */
export function subworkflowBody(
  scope: ReferenceScope,
  env: ValidationEnv,
  nodeId: string,
  config: Pick<SubworkflowConfig, 'workflow_id' | 'inputs'> & Partial<Pick<SubworkflowConfig, 'inherit_context'>>,
  configPath: string,
  locals: ReadonlySet<string>,
): { problems: Problem[]; reference: SubworkflowReference } {
  const inputsPath = `${configPath}.inputs`;
  return {
    reference: {
      path: `${configPath}.workflow_id`,
      workflowId: config.workflow_id,
      inputs: { path: inputsPath, values: config.inputs ?? {}, inheritContext: config.inherit_context === true },
    },
    problems: [
      ...templateReferenceProblems(scope, env, nodeId, config.inputs, inputsPath, locals),
      ...misplacedSecretReferenceProblems(config.inputs, inputsPath, 'subworkflow inputs'),
    ],
  };
}
