import type { NodeDef } from '../model';
import { toolBindings, type TypedConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { unwrapTemplate } from './conditions';
import { loopNodeChecks } from './loopNode';
import { staticReference, templateReferenceProblems, type ReferenceScope } from './references';
import { subworkflowBody } from './subworkflowBody';
import { toolBodyProblems, type PlacedBinding } from './toolBody';
import type { SubworkflowReference, ValidationEnv } from './types';

export interface NodeBodies {
  problems: Problem[];
  /** child workflows named by subworkflow nodes and loop templates, in node order */
  subworkflows: SubworkflowReference[];
}

/**
 * What each valid node does, checked against the graph: references, tool configs, templates, secret references,
 * loops and subworkflow calls. Node by node, in node order.
 */
export function nodeBodyChecks(
  nodes: readonly NodeDef[],
  configs: ReadonlyMap<string, TypedConfig>,
  nodeIds: ReadonlySet<string>,
  scope: ReferenceScope,
  env: ValidationEnv,
  nodePath: (id: string) => string,
): NodeBodies {
  const result: NodeBodies = { problems: [], subworkflows: [] };
  for (const node of nodes) {
    const typed = configs.get(node.id);
    if (!typed) continue;
    const checked = nodeBody(node, typed, nodeIds, scope, env, nodePath(node.id));
    result.problems.push(...checked.problems);
    result.subworkflows.push(...checked.subworkflows);
  }
  return result;
}

function nodeBody(
  node: NodeDef,
  typed: TypedConfig,
  nodeIds: ReadonlySet<string>,
  scope: ReferenceScope,
  env: ValidationEnv,
  base: string,
): NodeBodies {
  const none = new Set<string>();
  switch (typed.type) {
    case 'tool':
      // The tool's bindings include the node-level ones; they are checked there.
      return { problems: toolBodyProblems(scope, env, node.id, typed.config, toolNodeBindings(node, typed.config, base), `${base}.config`, none), subworkflows: [] };
    case 'subworkflow': {
      const body = subworkflowBody(scope, env, node.id, typed.config, `${base}.config`, none);
      return withNodeInputs(node, scope, base, { problems: body.problems, subworkflows: [body.reference] });
    }
    case 'loop':
      return withNodeInputs(node, scope, base, loopNodeChecks(scope, env, node.id, typed.config, base, nodeIds));
    case 'condition':
      return withNodeInputs(node, scope, base, { problems: conditionReferenceProblems(scope, env, node.id, typed.config.expression, base), subworkflows: [] });
    case 'parallel':
      return withNodeInputs(node, scope, base, { problems: [], subworkflows: [] });
  }
}

/** A tool node's bindings: the node-level `inputs` first, then the tool config's, each with its own path. */
export function toolNodeBindings(node: NodeDef, config: Parameters<typeof toolBindings>[1], base: string): PlacedBinding[] {
  const nodeLevel = node.inputs?.length ?? 0;
  return toolBindings(node, config).inputs.map((binding, i) => ({
    binding,
    fromPath: `${base}.${i < nodeLevel ? `inputs[${i}]` : `config.inputs[${i - nodeLevel}]`}.from`,
  }));
}

/** A condition's expression is a template in CEL: the names it uses are checked like any template's. */
function conditionReferenceProblems(scope: ReferenceScope, env: ValidationEnv, nodeId: string, expression: string, base: string): Problem[] {
  const path = `${base}.config.expression`;
  return [
    ...templateReferenceProblems(scope, env, nodeId, `\${${unwrapTemplate(expression)}}`, path, new Set()),
    ...misplacedSecretReferenceProblems(expression, path, 'conditions'),
  ];
}

/** Node-level `inputs` of a node that is not a tool (a tool's are among its bindings). */
function withNodeInputs(node: NodeDef, scope: ReferenceScope, base: string, checked: NodeBodies): NodeBodies {
  const inputs = (node.inputs ?? []).flatMap((binding, i) => staticReference(scope, node.id, binding.from, `${base}.inputs[${i}].from`).problems);
  return { problems: [...checked.problems, ...inputs], subworkflows: checked.subworkflows };
}
