import { ancestorIndex } from './graph';
import { dagSchema } from './model';
import { dependencyStructure } from './structure';
import { cycleProblems } from './validation/cycles';
import { checkDagObject } from './validation/dagObject';
import { dedupeProblems } from './validation/dedupe';
import { parseEdges } from './validation/edges';
import { defaultErrorHandling, errorHandlingGraphProblems, parseErrorHandling } from './validation/errorHandling';
import { parseFlow } from './validation/flow';
import { nodeBodyChecks } from './validation/nodeBodies';
import { parseNodes } from './validation/nodes';
import { nodeTypeProblems } from './validation/nodeTypeRules';
import { nodeOutputs } from './validation/outputs';
import { checkParameters } from './validation/parameters';
import { dagPaths } from './validation/paths';
import { checkEntryAndExitPoints } from './validation/points';
import type { ReferenceScope } from './validation/references';
import { checkDeclaredTools, toolsUsed } from './validation/toolsList';
import { checkTriggers } from './validation/triggers';
import type { DefinitionInput, ValidateOptions, ValidationEnv, ValidationResult } from './validation/types';

export { unwrapTemplate } from './validation/conditions';
export type {
  DefinitionInput,
  OutputType,
  SubworkflowReference,
  TemplateReference,
  ToolInfo,
  ValidateOptions,
  ValidationEnv,
  ValidationResult,
} from './validation/types';

/**
 * Validation of a workflow definition. Pure and deterministic: tools and expressions are reached through the
 * injected `ValidationEnv` (the API wires the tool registry and lib/expressions), so this folder stays free of
 * Node APIs. Returns every problem at once, each naming the node and field; on success, the stored definition
 * with entry and exit points derived where absent, and the subworkflow references the caller must still resolve
 * (they need a database: see subworkflows.ts).
 *
 * Each concern is a function of its own in ./validation; this composes them. The order of the problems is part of
 * the API's answers (clients and tests read them): parameters, triggers, error handling, the graph's shape, nodes,
 * edges, node-type rules, cycles, entry and exit points, node bodies, the tools list, error handling against the graph.
 */
export function validateDefinition(input: DefinitionInput, env: ValidationEnv, options: ValidateOptions = {}): ValidationResult {
  const dagPath = options.dagPath ?? 'dag';
  const ehPath = options.errorHandlingPath ?? 'error_handling';
  const paths = dagPaths(dagPath);

  // Independent of the graph.
  const parameters = checkParameters(input.parameters);
  const triggers = checkTriggers(input.triggers, env);
  const errorHandling = parseErrorHandling(input.errorHandling, ehPath);
  const flow = parseFlow(input.flow, 'flow', env);
  const early = [...parameters.problems, ...triggers.problems, ...errorHandling.problems, ...flow.problems];

  const dagObject = checkDagObject(input.dag, dagPath, paths);
  if (dagObject.stop) return { ok: false, problems: [...early, ...dagObject.problems], subworkflows: [] };

  // The graph's parts, then the rules across them.
  const parsed = parseNodes(dagObject.rawNodes, dagPath);
  const { nodes, nodeIds, mentionedIds, configs } = parsed;
  const edges = parseEdges(dagObject.dag.edges, mentionedIds, paths);
  const structure = dependencyStructure(nodes.map((n) => n.id), edges.value, configs);
  const points = checkEntryAndExitPoints(dagObject.dag, structure, nodeIds, paths);
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const scope: ReferenceScope = {
    hasNode: (id) => nodeById.has(id),
    ancestors: ancestorIndex(structure.graph),
    outputsOf: (id) => {
      const node = nodeById.get(id);
      const typed = configs.get(id);
      return node && typed ? nodeOutputs(node, typed, env) : null;
    },
    parameters: parameters.value,
  };
  const bodies = nodeBodyChecks(nodes, configs, nodeIds, scope, env, paths.node);
  const declaredTools = checkDeclaredTools(input.tools, env);

  const problems = [
    ...early,
    ...dagObject.problems,
    ...parsed.problems,
    ...edges.problems,
    ...nodeTypeProblems(nodes, configs, mentionedIds, paths, env),
    ...cycleProblems(structure, paths),
    ...points.problems,
    ...bodies.problems,
    ...declaredTools.problems,
    ...(errorHandling.value ? errorHandlingGraphProblems(errorHandling.value, ehPath, { nodeIds, mentionedIds }, env) : []),
  ];
  if (problems.length) return { ok: false, problems: dedupeProblems(problems), subworkflows: bodies.subworkflows };

  // Parse the whole graph once more through the model schema: defaults applied, shape guaranteed.
  const { entryPoints, exitPoints, derivedEntries, derivedExits } = points.value;
  const dag = dagSchema.parse({ nodes, edges: edges.value, entryPoints: entryPoints ?? undefined, exitPoints: exitPoints ?? undefined });
  return {
    ok: true,
    subworkflows: bodies.subworkflows,
    definition: {
      dag: { ...dag, entryPoints: entryPoints ?? derivedEntries, exitPoints: exitPoints ?? derivedExits },
      tools: [...new Set([...declaredTools.value, ...toolsUsed(nodes, configs)])].sort(),
      triggers: triggers.value,
      parameters: parameters.value,
      errorHandling: errorHandling.value ?? defaultErrorHandling(),
      ...(flow.value ? { flow: flow.value } : {}),
    },
  };
}
