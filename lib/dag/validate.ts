import { ancestorIndex, findCycles } from './graph';
import {
  dagSchema,
  edgeSchema,
  errorHandlingSchema,
  NODE_ID,
  nodeSchema,
  triggerSchema,
  type Edge,
  type ErrorHandling,
  type NodeDef,
  type ParameterDecl,
  type StoredDefinition,
  type Trigger,
} from './model';
import { parseNodeConfig, toolBindings, zodProblems, type TypedConfig } from './nodeConfig';
import { parameterDeclProblems } from './parameters';
import { nodePath, type Problem } from './problems';
import { parseReference, RESERVED_NAMES } from './references';
import { hasSecretReferences, misplacedSecretReferenceProblems, secretReferenceProblems } from './secretReferences';
import { deriveEntryPoints, deriveExitPoints, dependencyStructure, type DagStructure } from './structure';
import { triggerProblems } from './triggers';

/**
 * Validation of a workflow definition. Pure and deterministic: tools and expressions are reached through the
 * injected `ValidationEnv` (the API wires the tool registry and lib/expressions), so this folder stays free of
 * Node APIs. Returns every problem at once, each naming the node and field; on success, the stored definition
 * with entry and exit points derived where absent, and the subworkflow references the caller must still resolve
 * (they need a database: see subworkflows.ts).
 */

export interface ToolInfo {
  /** names of the tool's outputs (its output schema's properties) */
  outputs: Record<string, OutputType>;
  /** problems of a (template-free) config against the tool's input schema, paths starting with `prefix` */
  configProblems(config: Record<string, unknown>, prefix: string): Problem[];
}

export type OutputType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'any';

/** A reference found in a `${...}` template (see lib/expressions findReferences). */
export type TemplateReference =
  | { kind: 'param'; name: string | null; path: string }
  | { kind: 'node'; nodeId: string; output: string | null; path: string }
  | { kind: 'name'; name: string; field: string | null; path: string };

export interface ValidationEnv {
  tool(id: string): ToolInfo | null;
  /** problems of a CEL expression (condition expressions) */
  expressionProblems(text: string): string[];
  /** problems of every `${...}` template in a value, paths starting with `basePath` */
  templateProblems(value: unknown, basePath: string): Problem[];
  templateReferences(value: unknown, basePath: string): TemplateReference[];
  hasTemplates(value: unknown): boolean;
  /** Deeper checks of the triggers' configs (cron, zone, paths, mappings...), wired by the triggers domain. */
  triggerProblems?(entries: { trigger: Trigger; path: string; index: number }[]): Problem[];
}

export interface DefinitionInput {
  dag: unknown;
  tools?: unknown;
  triggers?: unknown;
  parameters?: unknown;
  errorHandling?: unknown;
}

export interface SubworkflowReference {
  path: string;
  workflowId: string;
}

export type ValidationResult =
  | { ok: true; definition: StoredDefinition; subworkflows: SubworkflowReference[] }
  | { ok: false; problems: Problem[]; subworkflows: SubworkflowReference[] };

export interface ValidateOptions {
  /** path prefix of the graph in problems: `dag` for the API shape, `` for the definition document */
  dagPath?: string;
  errorHandlingPath?: string;
}

/**
 * Outputs every node of a type has, as the interpreter produces them (workflows/runs): a condition's verdict and
 * the branch taken, a loop's results in item order, a parallel node's per-branch outputs. A subworkflow's outputs
 * are the child's results (keyed by its exit nodes), unknown here: any name is accepted unless `outputs` are declared.
 */
const IMPLICIT_OUTPUTS: Record<string, Record<string, OutputType>> = {
  condition: { result: 'boolean', branch: 'string' },
  loop: { results: 'array', count: 'integer' },
  parallel: { branches: 'object', completed: 'array' },
  subworkflow: {},
  tool: {},
};

export function validateDefinition(
  input: DefinitionInput,
  env: ValidationEnv,
  options: ValidateOptions = {},
): ValidationResult {
  const dagPath = options.dagPath ?? 'dag';
  const at = (suffix: string): string => (dagPath ? `${dagPath}.${suffix}` : suffix);
  const problems: Problem[] = [];
  const subworkflows: SubworkflowReference[] = [];

  // ---- parameters, triggers, error handling (independent of the graph) ----
  const rawParams = input.parameters ?? [];
  let parameters: ParameterDecl[] = [];
  if (!Array.isArray(rawParams)) problems.push({ path: 'parameters', problem: 'must be an array' });
  else {
    const checked = parameterDeclProblems(rawParams);
    parameters = checked.decls;
    problems.push(...checked.problems);
  }
  const declaredParams = new Set(parameters.map((p) => p.name));

  const triggers: Trigger[] = [];
  const rawTriggers = input.triggers ?? [];
  if (!Array.isArray(rawTriggers)) problems.push({ path: 'triggers', problem: 'must be an array' });
  else {
    const checked: { trigger: Trigger; path: string; index: number }[] = [];
    const basePaths = new Set<string>();
    rawTriggers.forEach((raw, i) => {
      const parsed = triggerSchema.safeParse(raw);
      if (!parsed.success) problems.push(...zodProblems(parsed.error, `triggers[${i}]`));
      else {
        const base = triggerProblems(parsed.data, `triggers[${i}]`);
        for (const p of base) basePaths.add(p.path);
        problems.push(...base);
        triggers.push(parsed.data);
        checked.push({ trigger: parsed.data, path: `triggers[${i}]`, index: i });
      }
    });
    // The env's deeper checks; a field the basic checks already reported is not reported twice.
    problems.push(...(env.triggerProblems?.(checked) ?? []).filter((p) => !basePaths.has(p.path)));
  }

  const ehPath = options.errorHandlingPath ?? 'error_handling';
  let errorHandling: ErrorHandling = errorHandlingSchema.parse({});
  const ehParsed = errorHandlingSchema.safeParse(input.errorHandling ?? {});
  if (!ehParsed.success) problems.push(...zodProblems(ehParsed.error, ehPath));
  else errorHandling = ehParsed.data;

  // ---- graph shape, node by node so one bad node does not hide the others' problems ----
  const rawDag = input.dag;
  if (!rawDag || typeof rawDag !== 'object' || Array.isArray(rawDag)) {
    problems.push({ path: dagPath || 'nodes', problem: 'required: an object with nodes and edges' });
    return { ok: false, problems, subworkflows };
  }
  const dagObj = rawDag as Record<string, unknown>;
  const known = new Set(['nodes', 'edges', 'entryPoints', 'exitPoints']);
  for (const key of Object.keys(dagObj)) {
    if (!known.has(key)) problems.push({ path: at(key), problem: 'unknown field' });
  }
  const rawNodes = Array.isArray(dagObj.nodes) ? dagObj.nodes : null;
  if (!rawNodes || rawNodes.length === 0) problems.push({ path: at('nodes'), problem: 'at least one node is required' });
  const maxNodes = 2000;
  if (rawNodes && rawNodes.length > maxNodes) {
    problems.push({ path: at('nodes'), problem: `at most ${maxNodes} nodes` });
    return { ok: false, problems, subworkflows };
  }

  const nodes: NodeDef[] = [];
  const nodeIds = new Set<string>();
  /** ids that exist (even on invalid nodes) so edges to them are not also "unknown" */
  const mentionedIds = new Set<string>();
  const configs = new Map<string, TypedConfig>();
  (rawNodes ?? []).forEach((raw, i) => {
    const id = (raw as { id?: unknown } | null)?.id;
    const path = nodePath(dagPath, id, i);
    if (typeof id === 'string') {
      if (mentionedIds.has(id)) {
        problems.push({ path: `${path}.id`, problem: `duplicate node id "${id}"` });
        return;
      }
      mentionedIds.add(id);
    }
    const parsed = nodeSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, path));
      return;
    }
    const node = parsed.data;
    if (RESERVED_NAMES.has(node.id)) {
      problems.push({ path: `${path}.id`, problem: `"${node.id}" is reserved in expressions; choose another id` });
    }
    const typed = parseNodeConfig(node, path);
    if (!typed.ok) problems.push(...typed.problems);
    else configs.set(node.id, typed.value);
    nodes.push(node);
    nodeIds.add(node.id);
  });

  const edges: Edge[] = [];
  const rawEdges = dagObj.edges ?? [];
  if (!Array.isArray(rawEdges)) problems.push({ path: at('edges'), problem: 'must be an array' });
  else {
    if (rawEdges.length > 10_000) problems.push({ path: at('edges'), problem: 'at most 10000 edges' });
    const seenEdges = new Set<string>();
    rawEdges.slice(0, 10_000).forEach((raw, i) => {
      const path = at(`edges[${i}]`);
      const parsed = edgeSchema.safeParse(raw);
      if (!parsed.success) {
        problems.push(...zodProblems(parsed.error, path));
        return;
      }
      const edge = parsed.data;
      let ok = true;
      for (const end of ['from', 'to'] as const) {
        if (!mentionedIds.has(edge[end])) {
          problems.push({ path: `${path}.${end}`, problem: `unknown node "${edge[end]}"` });
          ok = false;
        }
      }
      const key = `${edge.from}\u0000${edge.to}`;
      if (ok && seenEdges.has(key)) problems.push({ path, problem: `duplicate edge ${edge.from} -> ${edge.to}` });
      seenEdges.add(key);
      if (ok) edges.push(edge);
    });
  }

  // ---- node-type rules that need the set of nodes ----
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const np = (id: string): string => at(`nodes.${id}`);
  const branchOwner = new Map<string, string>();
  for (const node of nodes) {
    const typed = configs.get(node.id);
    if (!typed) continue;
    if (typed.type === 'condition') {
      const { trueBranch, falseBranch, expression } = typed.config;
      for (const [field, target] of [
        ['trueBranch', trueBranch],
        ['falseBranch', falseBranch],
      ] as const) {
        if (target === undefined) continue;
        if (!mentionedIds.has(target)) {
          problems.push({ path: `${np(node.id)}.config.${field}`, problem: `"${target}" is not a node of the graph` });
        } else if (target === node.id) {
          problems.push({ path: `${np(node.id)}.config.${field}`, problem: 'a condition cannot branch to itself' });
        }
      }
      if (!trueBranch && !falseBranch) {
        problems.push({ path: `${np(node.id)}.config`, problem: 'a condition needs trueBranch, falseBranch or both' });
      }
      for (const problem of env.expressionProblems(unwrapTemplate(expression))) {
        problems.push({ path: `${np(node.id)}.config.expression`, problem });
      }
    }
    if (typed.type === 'parallel') {
      const { branches, joinStrategy, n } = typed.config;
      const branchIds = new Set<string>();
      branches.forEach((branch, b) => {
        const bp = `${np(node.id)}.config.branches[${b}]`;
        if (branchIds.has(branch.id)) problems.push({ path: `${bp}.id`, problem: `duplicate branch id "${branch.id}"` });
        branchIds.add(branch.id);
        branch.nodes.forEach((member, m) => {
          const mp = `${bp}.nodes[${m}]`;
          if (!mentionedIds.has(member)) problems.push({ path: mp, problem: `unknown node "${member}"` });
          else if (member === node.id) problems.push({ path: mp, problem: 'a parallel node cannot contain itself' });
          else if (branchOwner.has(member)) {
            problems.push({ path: mp, problem: `"${member}" is already a branch node of "${branchOwner.get(member)}"` });
          } else branchOwner.set(member, node.id);
        });
      });
      if (joinStrategy === 'wait_n') {
        if (n === undefined) problems.push({ path: `${np(node.id)}.config.n`, problem: 'required for joinStrategy wait_n' });
        else if (n > branches.length) {
          problems.push({ path: `${np(node.id)}.config.n`, problem: `n (${n}) exceeds the ${branches.length} branches` });
        }
      } else if (n !== undefined) {
        problems.push({ path: `${np(node.id)}.config.n`, problem: 'only used with joinStrategy wait_n' });
      }
    }
  }

  // ---- graph: cycles, entry and exit points ----
  const ids = nodes.map((n) => n.id);
  const structure = dependencyStructure(ids, edges, configs);
  const cycles = findCycles(structure.graph);
  for (const cycle of cycles) {
    problems.push({ path: np(cycle[0]!), problem: `cycle: ${cycle.join(' -> ')}` });
  }
  const entryPoints = pointList(dagObj.entryPoints, at('entryPoints'), problems);
  const exitPoints = pointList(dagObj.exitPoints, at('exitPoints'), problems);
  const derivedEntries = deriveEntryPoints(structure);
  const derivedExits = deriveExitPoints(structure);
  checkPoints('entryPoints', entryPoints, structure, nodeIds, at('entryPoints'), problems);
  checkPoints('exitPoints', exitPoints, structure, nodeIds, at('exitPoints'), problems);
  if (!entryPoints && derivedEntries.length === 0 && nodes.length > 0) {
    problems.push({ path: at('entryPoints'), problem: 'the graph has no entry point (every node has a predecessor)' });
  }

  // ---- references, tools, loops, subworkflows ----
  const ancestors = ancestorIndex(structure.graph);
  const outputsOf = (id: string): Record<string, OutputType> | null => {
    const node = nodeById.get(id);
    const typed = configs.get(id);
    if (!node || !typed) return null;
    const out: Record<string, OutputType> = { ...IMPLICIT_OUTPUTS[node.type] };
    if (typed.type === 'tool') {
      Object.assign(out, env.tool(typed.config.tool)?.outputs ?? {});
      for (const o of toolBindings(node, typed.config).outputs) out[o.name] = o.type;
    } else {
      if (typed.type === 'subworkflow' && !node.outputs?.length) return null;
      for (const o of node.outputs ?? []) out[o.name] = o.type;
    }
    return out;
  };

  const refs = new ReferenceChecker(nodeById, declaredParams, ancestors, outputsOf, problems, parameters);

  for (const node of nodes) {
    const typed = configs.get(node.id);
    if (!typed) continue;
    const base = np(node.id);
    if (typed.type === 'tool') {
      const { inputs } = toolBindings(node, typed.config);
      inputs.forEach((binding, i) => {
        const path = `${base}.${i < (node.inputs?.length ?? 0) ? `inputs[${i}]` : `config.inputs[${i - (node.inputs?.length ?? 0)}]`}.from`;
        refs.checkStatic(node.id, binding.from, path);
      });
      checkToolConfig(typed.config.tool, typed.config.config, inputs.map((b) => b.name ?? b.from.split('.')[1]!), `${base}.config`, env, problems);
      refs.checkTemplates(node.id, typed.config.config, `${base}.config.config`, env, new Set());
      problems.push(...secretReferenceProblems(typed.config.config, `${base}.config.config`));
    } else if (typed.type === 'subworkflow') {
      subworkflows.push({ path: `${base}.config.workflow_id`, workflowId: typed.config.workflow_id });
      refs.checkTemplates(node.id, typed.config.inputs, `${base}.config.inputs`, env, new Set());
      problems.push(...misplacedSecretReferenceProblems(typed.config.inputs, `${base}.config.inputs`, 'subworkflow inputs'));
    } else if (typed.type === 'loop') {
      const { items, iterator, template } = typed.config;
      if (RESERVED_NAMES.has(iterator) || nodeIds.has(iterator)) {
        problems.push({ path: `${base}.config.iterator`, problem: `"${iterator}" is already a node id or a reserved name` });
      }
      refs.checkLoopItems(node.id, items, `${base}.config.items`, env);
      problems.push(...misplacedSecretReferenceProblems(items, `${base}.config.items`, 'loop items'));
      // The item is bound under the iterator's name and its position as `<iterator>_index` (`loop` is a reserved
      // word in CEL, so `loop.index` cannot be written).
      const locals = new Set([iterator, `${iterator}_index`]);
      const tp = `${base}.config.template`;
      const parsed = parseNodeConfig({ type: template.type, config: template.config }, tp);
      if (!parsed.ok) problems.push(...parsed.problems);
      else if (parsed.value.type === 'tool') {
        const tc = parsed.value.config;
        tc.inputs.forEach((binding, i) => refs.checkStatic(node.id, binding.from, `${tp}.config.inputs[${i}].from`));
        checkToolConfig(tc.tool, tc.config, tc.inputs.map((b) => b.name ?? b.from.split('.')[1]!), `${tp}.config`, env, problems);
        refs.checkTemplates(node.id, tc.config, `${tp}.config.config`, env, locals);
        problems.push(...secretReferenceProblems(tc.config, `${tp}.config.config`));
      } else if (parsed.value.type === 'subworkflow') {
        subworkflows.push({ path: `${tp}.config.workflow_id`, workflowId: parsed.value.config.workflow_id });
        refs.checkTemplates(node.id, parsed.value.config.inputs, `${tp}.config.inputs`, env, locals);
        problems.push(...misplacedSecretReferenceProblems(parsed.value.config.inputs, `${tp}.config.inputs`, 'subworkflow inputs'));
      }
    } else if (typed.type === 'condition') {
      refs.checkTemplates(node.id, `\${${unwrapTemplate(typed.config.expression)}}`, `${base}.config.expression`, env, new Set());
      problems.push(...misplacedSecretReferenceProblems(typed.config.expression, `${base}.config.expression`, 'conditions'));
    }
    if (typed.type !== 'tool' && node.inputs?.length) {
      node.inputs.forEach((binding, i) => refs.checkStatic(node.id, binding.from, `${base}.inputs[${i}].from`));
    }
  }

  // ---- workflow-level tools list ----
  const usedTools = new Set<string>();
  for (const typed of configs.values()) if (typed.type === 'tool') usedTools.add(typed.config.tool);
  for (const node of nodes) {
    const typed = configs.get(node.id);
    if (typed?.type === 'loop' && typed.config.template.type === 'tool') {
      const t = (typed.config.template.config as { tool?: unknown }).tool;
      if (typeof t === 'string') usedTools.add(t);
    }
  }
  const declaredTools: string[] = [];
  const rawTools = input.tools ?? [];
  if (!Array.isArray(rawTools)) problems.push({ path: 'tools', problem: 'must be an array of tool ids' });
  else {
    rawTools.forEach((t, i) => {
      const id = typeof t === 'string' ? t : (t as { id?: unknown } | null)?.id;
      if (typeof id !== 'string') problems.push({ path: `tools[${i}]`, problem: 'a tool id (or an object with an id)' });
      else if (!env.tool(id)) problems.push({ path: `tools[${i}]`, problem: `unknown tool "${id}"` });
      else declaredTools.push(id);
    });
  }

  // ---- error handling against the graph ----
  if (ehParsed.success) {
    for (const [id, override] of Object.entries(errorHandling.node_overrides)) {
      const op = `${ehPath}.node_overrides.${id}`;
      if (!mentionedIds.has(id)) problems.push({ path: op, problem: `unknown node "${id}"` });
      if (override.strategy === 'fallback') {
        if (!override.handler) problems.push({ path: `${op}.handler`, problem: 'required for the fallback strategy' });
        else if (override.handler === id) problems.push({ path: `${op}.handler`, problem: 'a node cannot be its own fallback' });
        else if (!nodeIds.has(override.handler)) {
          if (!env.tool(override.handler)) {
            problems.push({ path: `${op}.handler`, problem: `"${override.handler}" is neither a node nor a tool` });
          } else if (override.handler_config && !env.hasTemplates(override.handler_config) && !hasSecretReferences(override.handler_config)) {
            problems.push(...env.tool(override.handler)!.configProblems(override.handler_config, `${op}.handler_config`));
          }
        }
        if (override.handler_config) {
          problems.push(...secretReferenceProblems(override.handler_config, `${op}.handler_config`));
        }
      } else if (override.handler) {
        problems.push({ path: `${op}.handler`, problem: 'only used with the fallback strategy' });
      }
    }
    if (errorHandling.default_strategy === 'fallback') {
      problems.push({
        path: `${ehPath}.default_strategy`,
        problem: 'fallback needs a handler per node: use node_overrides with strategy fallback and a handler',
      });
    }
  }

  if (problems.length) return { ok: false, problems: dedupe(problems), subworkflows };

  // Parse the whole graph once more through the model schema: defaults applied, shape guaranteed.
  const dag = dagSchema.parse({ nodes, edges, entryPoints: entryPoints ?? undefined, exitPoints: exitPoints ?? undefined });
  const tools = [...new Set([...declaredTools, ...usedTools])].sort();
  return {
    ok: true,
    subworkflows,
    definition: {
      dag: { ...dag, entryPoints: entryPoints ?? derivedEntries, exitPoints: exitPoints ?? derivedExits },
      tools,
      triggers,
      parameters,
      errorHandling,
    },
  };
}

/** `${expr}` written around a condition is accepted: conditions are CEL either way. */
export function unwrapTemplate(expression: string): string {
  const t = expression.trim();
  if (t.startsWith('${') && t.endsWith('}') && t.indexOf('${', 2) === -1) return t.slice(2, -1).trim();
  return t;
}

function pointList(raw: unknown, path: string, problems: Problem[]): string[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' || !NODE_ID.test(v))) {
    problems.push({ path, problem: 'must be an array of node ids' });
    return null;
  }
  if (raw.length === 0) {
    problems.push({ path, problem: 'must not be empty (omit it to derive it)' });
    return null;
  }
  return raw as string[];
}

function checkPoints(
  kind: 'entryPoints' | 'exitPoints',
  points: string[] | null,
  structure: DagStructure,
  nodeIds: Set<string>,
  path: string,
  problems: Problem[],
): void {
  if (!points) return;
  points.forEach((id, i) => {
    if (!nodeIds.has(id)) {
      problems.push({ path: `${path}[${i}]`, problem: `unknown node "${id}"` });
      return;
    }
    if (kind === 'entryPoints') {
      const preds = structure.graph.predecessors.get(id)!;
      if (preds.length) problems.push({ path: `${path}[${i}]`, problem: `"${id}" has predecessors (${preds.join(', ')})` });
    } else if (structure.parallelOf.has(id)) {
      problems.push({ path: `${path}[${i}]`, problem: `"${id}" is a branch node of "${structure.parallelOf.get(id)}"` });
    }
  });
  if (kind === 'entryPoints') {
    // Every node without predecessors must be listed, or it would never run.
    for (const id of deriveEntryPoints(structure)) {
      if (!points.includes(id)) problems.push({ path, problem: `"${id}" has no predecessors but is not an entry point` });
    }
  }
}

/** Config vs the tool's input schema, ignoring fields that templates or input bindings fill at run time. */
function checkToolConfig(
  toolId: string,
  config: Record<string, unknown>,
  boundNames: string[],
  path: string,
  env: ValidationEnv,
  problems: Problem[],
): void {
  const tool = env.tool(toolId);
  if (!tool) {
    problems.push({ path: `${path}.tool`, problem: `unknown tool "${toolId}"` });
    return;
  }
  const dynamic = new Set(boundNames);
  const fixed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) {
    // Templates and secret references are filled at run time: their fields are checked then.
    if (env.hasTemplates(v) || hasSecretReferences(v)) dynamic.add(k);
    else fixed[k] = v;
  }
  const prefix = `${path}.config`;
  for (const p of tool.configProblems(fixed, prefix)) {
    const field = p.path.slice(prefix.length + 1).split(/[.[]/)[0] ?? '';
    if (!dynamic.has(field)) problems.push(p);
  }
}

class ReferenceChecker {
  constructor(
    private readonly nodes: Map<string, NodeDef>,
    private readonly params: Set<string>,
    private readonly ancestors: (id: string) => Set<string>,
    private readonly outputsOf: (id: string) => Record<string, OutputType> | null,
    private readonly problems: Problem[],
    private readonly paramDecls: ParameterDecl[],
  ) {}

  /** A reference to `target.output` made by `from`: the target exists, is an ancestor and declares the output. */
  private checkNode(from: string, target: string, output: string | null, path: string): OutputType | null {
    if (!this.nodes.has(target)) {
      this.problems.push({ path, problem: `unknown node "${target}"` });
      return null;
    }
    if (target === from) {
      this.problems.push({ path, problem: `node "${from}" cannot reference its own output` });
      return null;
    }
    if (!this.ancestors(from).has(target)) {
      this.problems.push({
        path,
        problem: `"${target}" is not an ancestor of "${from}": add an edge path ${target} -> ... -> ${from}`,
      });
      return null;
    }
    const outputs = this.outputsOf(target);
    if (!outputs || output === null) return 'any';
    if (!(output in outputs)) {
      const list = Object.keys(outputs);
      this.problems.push({
        path,
        problem: `node "${target}" does not declare output "${output}"${list.length ? ` (it has: ${list.join(', ')})` : ''}`,
      });
      return null;
    }
    return outputs[output]!;
  }

  private checkParam(name: string | null, path: string): OutputType | null {
    if (name === null) return 'object';
    if (!this.params.has(name)) {
      this.problems.push({ path, problem: `unknown parameter "${name}"` });
      return null;
    }
    return this.paramDecls.find((p) => p.name === name)!.type;
  }

  checkStatic(from: string, text: string, path: string): OutputType | null {
    const ref = parseReference(text);
    if (!ref) {
      this.problems.push({ path, problem: 'references look like <node_id>.<output_name> or params.<name>' });
      return null;
    }
    return ref.kind === 'param' ? this.checkParam(ref.name, path) : this.checkNode(from, ref.nodeId, ref.output, path);
  }

  checkTemplates(from: string, value: unknown, basePath: string, env: ValidationEnv, locals: Set<string>): void {
    const templateProblems = env.templateProblems(value, basePath);
    this.problems.push(...templateProblems);
    if (templateProblems.length) return;
    for (const ref of env.templateReferences(value, basePath)) {
      if (ref.kind === 'param') this.checkParam(ref.name, ref.path);
      else if (ref.kind === 'node') this.checkNode(from, ref.nodeId, ref.output, ref.path);
      else if (locals.has(ref.name)) continue;
      else if (this.nodes.has(ref.name)) this.checkNode(from, ref.name, ref.field, ref.path);
      else {
        this.problems.push({
          path: ref.path,
          problem: `unknown name "${ref.name}": use params.<name>, nodes.<id>.<output> or <id>.<output>`,
        });
      }
    }
  }

  checkLoopItems(from: string, items: string, path: string, env: ValidationEnv): void {
    if (parseReference(items)) {
      const type = this.checkStatic(from, items, path);
      if (type && type !== 'array' && type !== 'any') {
        this.problems.push({ path, problem: `"${items}" is of type ${type}, not a list` });
      }
      return;
    }
    if (env.hasTemplates(items)) {
      this.checkTemplates(from, items, path, env, new Set());
      return;
    }
    this.problems.push({
      path,
      problem: 'items must be a reference to a list (<node_id>.<output>, params.<name>) or a ${...} expression',
    });
  }
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.problem}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
