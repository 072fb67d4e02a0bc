import { errorHandlingSchema, type ErrorHandling } from '../model';
import { zodProblems } from '../nodeConfig';
import type { Problem } from '../problems';
import { secretFieldProblems } from '../secretFields';
import { hasSecretReferences, misplacedSecretReferenceProblems, secretReferenceProblems } from '../secretReferences';
import type { ValidationEnv } from './types';

/** The `error_handling` block parsed (defaults applied); `null` with the problems when its shape is wrong. */
export function parseErrorHandling(raw: unknown, path: string): { value: ErrorHandling | null; problems: Problem[] } {
  const parsed = errorHandlingSchema.safeParse(raw ?? {});
  if (!parsed.success) return { value: null, problems: zodProblems(parsed.error, path, errorHandlingSchema) };
  return { value: parsed.data, problems: [] };
}

/** The defaults, for a definition whose block could not be parsed (it is refused anyway). */
export function defaultErrorHandling(): ErrorHandling {
  return errorHandlingSchema.parse({});
}

export interface ErrorHandlingGraph {
  /** ids of valid nodes */
  nodeIds: ReadonlySet<string>;
  /** ids written on any node, valid or not (an override of an invalid node is not also "unknown") */
  mentionedIds: ReadonlySet<string>;
}

/**
 * Error handling against the graph: overrides name existing nodes; a fallback has a handler that is another node or
 * a tool (its config checked when no template or secret fills it at run time); `fallback` is not a default.
 */
export function errorHandlingGraphProblems(
  errorHandling: ErrorHandling,
  path: string,
  graph: ErrorHandlingGraph,
  env: Pick<ValidationEnv, 'tool' | 'hasTemplates'>,
): Problem[] {
  const problems: Problem[] = [];
  for (const [id, override] of Object.entries(errorHandling.node_overrides)) {
    const op = `${path}.node_overrides.${id}`;
    if (!graph.mentionedIds.has(id)) problems.push({ path: op, problem: `unknown node "${id}"` });
    if (override.strategy === 'fallback') problems.push(...fallbackProblems(id, override, op, graph, env));
    else if (override.handler) problems.push({ path: `${op}.handler`, problem: 'only used with the fallback strategy' });
  }
  if (errorHandling.default_strategy === 'fallback') {
    problems.push({
      path: `${path}.default_strategy`,
      problem: 'fallback needs a handler per node: use node_overrides with strategy fallback and a handler',
    });
  }
  return problems;
}

type Override = ErrorHandling['node_overrides'][string];

function fallbackProblems(
  id: string,
  override: Override,
  op: string,
  graph: ErrorHandlingGraph,
  env: Pick<ValidationEnv, 'tool' | 'hasTemplates'>,
): Problem[] {
  const problems: Problem[] = [];
  const { handler, handler_config: handlerConfig } = override;
  if (!handler) problems.push({ path: `${op}.handler`, problem: 'required for the fallback strategy' });
  else if (handler === id) problems.push({ path: `${op}.handler`, problem: 'a node cannot be its own fallback' });
  else if (!graph.nodeIds.has(handler)) {
    const tool = env.tool(handler);
    if (!tool) problems.push({ path: `${op}.handler`, problem: `"${handler}" is neither a node nor a tool` });
    else if (handlerConfig) {
      problems.push(...secretFieldProblems(handler, tool.secretFields ?? [], handlerConfig, `${op}.handler_config`));
      if (!env.hasTemplates(handlerConfig) && !hasSecretReferences(handlerConfig)) {
        problems.push(...tool.configProblems(handlerConfig, `${op}.handler_config`));
      }
    }
  } else if (handlerConfig) {
    // A node as handler runs its own config: this one is never used, so a reference here would resolve nowhere.
    problems.push(...misplacedSecretReferenceProblems(handlerConfig, `${op}.handler_config`, 'the handler_config of a node handler'));
  }
  if (handlerConfig) problems.push(...secretReferenceProblems(handlerConfig, `${op}.handler_config`));
  return problems;
}
