import type { NodeDef } from '../model';
import type { ToolConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { secretReferenceProblems } from '../secretReferences';
import { staticReference, templateReferenceProblems, type ReferenceScope } from './references';
import { toolConfigProblems } from './toolConfig';
import type { ValidationEnv } from './types';

/** `{ name?, from }`: a value a tool input receives from a node output or a parameter. */
export type InputBinding = NonNullable<NodeDef['inputs']>[number];

/** An input binding with the path of its `from` in problems. */
export interface PlacedBinding {
  binding: InputBinding;
  fromPath: string;
}

/** The field a binding fills: its name, or the output name of its reference. */
export function boundName(binding: InputBinding): string {
  return binding.name ?? binding.from.split('.')[1]!;
}

/**
 * A tool call's body, in a tool node or a loop template: its input bindings' references, its config against the
 * tool's schema, the templates in its config (with `locals` in scope) and the secret references there.
 */
export function toolBodyProblems(
  scope: ReferenceScope,
  env: ValidationEnv,
  nodeId: string,
  config: Pick<ToolConfig, 'tool' | 'config'>,
  bindings: readonly PlacedBinding[],
  configPath: string,
  locals: ReadonlySet<string>,
): Problem[] {
  return [
    ...bindings.flatMap(({ binding, fromPath }) => staticReference(scope, nodeId, binding.from, fromPath).problems),
    ...toolConfigProblems(config.tool, config.config, bindings.map(({ binding }) => boundName(binding)), configPath, env),
    ...templateReferenceProblems(scope, env, nodeId, config.config, `${configPath}.config`, locals),
    ...secretReferenceProblems(config.config, `${configPath}.config`),
  ];
}
