import type { ParameterDecl, StoredDefinition } from './model';
import { matchesType, sameJson } from './runParameters';
import type { Problem } from './problems';
import type { SubworkflowReference } from './validate';

/**
 * Subworkflow rules that need other workflows: a subworkflow must belong to the same organization, and no chain
 * of subworkflows may lead back to the workflow being saved. The lookup of other workflows is injected (the API
 * reads PostgreSQL), so the rules stay pure.
 */

export interface ReferencedWorkflow {
  id: string;
  organizationId: string;
  /** subworkflow ids its current version uses */
  subworkflowIds: string[];
  /** the parameters its current version declares (what a call's `inputs` are checked against) */
  parameters?: ParameterDecl[];
}

export type WorkflowLookup = (ids: string[]) => Promise<ReferencedWorkflow[]>;

/** Workflow ids used as subworkflows by a stored definition (subworkflow nodes and loop templates). */
export function subworkflowIdsOf(definition: Pick<StoredDefinition, 'dag'>): string[] {
  const ids = new Set<string>();
  for (const node of definition.dag.nodes) {
    if (node.type === 'subworkflow' && typeof node.config.workflow_id === 'string') ids.add(node.config.workflow_id);
    if (node.type === 'loop') {
      const template = node.config.template as { type?: string; config?: { workflow_id?: unknown } } | undefined;
      if (template?.type === 'subworkflow' && typeof template.config?.workflow_id === 'string') {
        ids.add(template.config.workflow_id);
      }
    }
  }
  return [...ids];
}

export const MAX_SUBWORKFLOW_GRAPH = 500;

/** Loads the referenced workflows transitively (bounded), breadth first. */
export async function loadSubworkflowGraph(
  roots: string[],
  lookup: WorkflowLookup,
): Promise<Map<string, ReferencedWorkflow>> {
  const found = new Map<string, ReferencedWorkflow>();
  const requested = new Set<string>();
  let frontier = [...new Set(roots)];
  while (frontier.length && requested.size < MAX_SUBWORKFLOW_GRAPH) {
    frontier = frontier.filter((id) => !requested.has(id)).slice(0, MAX_SUBWORKFLOW_GRAPH - requested.size);
    if (!frontier.length) break;
    frontier.forEach((id) => requested.add(id));
    const next: string[] = [];
    for (const wf of await lookup(frontier)) {
      found.set(wf.id, wf);
      next.push(...wf.subworkflowIds);
    }
    frontier = next;
  }
  return found;
}

/** Problems of the subworkflow references of the workflow `self` (id null while it is being created). */
export function subworkflowProblems(
  self: { id: string | null; organizationId: string },
  refs: SubworkflowReference[],
  graph: Map<string, ReferencedWorkflow>,
): Problem[] {
  const problems: Problem[] = [];
  for (const ref of refs) {
    if (self.id && ref.workflowId === self.id) {
      problems.push({ path: ref.path, problem: `subworkflow cycle: ${self.id} -> ${self.id}` });
      continue;
    }
    const target = graph.get(ref.workflowId);
    // Another organization's workflow is reported exactly like a missing one: ids of other tenants stay unconfirmed.
    if (!target || target.organizationId !== self.organizationId) {
      problems.push({ path: ref.path, problem: `no workflow ${ref.workflowId} in this organization` });
      continue;
    }
    if (ref.inputs && target.parameters) problems.push(...inputProblems(ref.workflowId, ref.inputs, target.parameters));
    if (!self.id) continue;
    const cycle = pathBack(ref.workflowId, self.id, graph);
    if (cycle) problems.push({ path: ref.path, problem: `subworkflow cycle: ${[self.id, ...cycle].join(' -> ')}` });
  }
  return problems;
}

/** A value written literally (no `${...}` template): its type is known at save time. */
function isLiteral(value: unknown): boolean {
  return !JSON.stringify(value ?? null).includes('${');
}

/**
 * A call's `inputs` against the child's declared parameters, as the run would check them (docs/workflows.md):
 * every input names a declared parameter; literal values have its type (and are in its `enum`); a required
 * parameter without a default is given, unless `inherit_context` may pass it from the parent's parameters.
 */
function inputProblems(workflowId: string, inputs: NonNullable<SubworkflowReference['inputs']>, declared: ParameterDecl[]): Problem[] {
  const problems: Problem[] = [];
  const byName = new Map(declared.map((d) => [d.name, d]));
  for (const [name, value] of Object.entries(inputs.values)) {
    const decl = byName.get(name);
    const path = `${inputs.path}.${name}`;
    if (!decl) {
      const names = declared.map((d) => d.name).join(', ') || 'none';
      problems.push({ path, problem: `workflow ${workflowId} declares no parameter ${name} (declared: ${names})` });
      continue;
    }
    if (value === null || !isLiteral(value)) continue;
    if (!matchesType(decl.type, value)) problems.push({ path, problem: `parameter ${name} of workflow ${workflowId} must be of type ${decl.type}` });
    else if (decl.enum && !decl.enum.some((allowed) => sameJson(allowed, value))) {
      problems.push({ path, problem: `parameter ${name} of workflow ${workflowId} must be one of its enum values` });
    }
  }
  if (!inputs.inheritContext) {
    for (const decl of declared) {
      if (decl.required && decl.default === undefined && !(decl.name in inputs.values)) {
        problems.push({ path: inputs.path, problem: `required parameter ${decl.name} of workflow ${workflowId} is missing` });
      }
    }
  }
  return problems;
}

/** A path of subworkflow ids from `start` to `goal` (inclusive), or null. */
function pathBack(start: string, goal: string, graph: Map<string, ReferencedWorkflow>): string[] | null {
  const parent = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const id = queue.shift()!;
    if (id === goal) {
      const path: string[] = [];
      for (let n: string | null = id; n !== null; n = parent.get(n) ?? null) path.unshift(n);
      return path;
    }
    for (const next of graph.get(id)?.subworkflowIds ?? []) {
      if (!parent.has(next)) {
        parent.set(next, id);
        queue.push(next);
      }
    }
  }
  return null;
}
