import type { NodeDef, NodeType } from './model';
import { toolBindings, type ConfigOf } from './nodeConfig';
import type { Problem } from './problems';
import { misplacedSecretReferenceProblems } from './secretReferences';
import { approvalBranchProblems, approvalProblems, approvalTargets } from './validation/approvalNode';
import { conditionProblems, unwrapTemplate } from './validation/conditions';
import { loopNodeChecks } from './validation/loopNode';
import { repeatNodeChecks } from './validation/repeatNode';
import { respondProblems } from './validation/respondNode';
import { parallelBranchProblems, parallelJoinProblems } from './validation/parallel';
import { expressionReferenceProblems, staticReference, type ReferenceScope } from './validation/references';
import { subworkflowBody } from './validation/subworkflowBody';
import { switchProblems, switchReferenceProblems, switchTargets } from './validation/switchNode';
import { waitForEventProblems, waitProblems } from './validation/waitNode';
import { toolBodyProblems, type PlacedBinding } from './validation/toolBody';
import type { OutputType, SubworkflowReference, ValidationEnv } from './validation/types';

/**
 * The node-type registry: everything the API side knows of a node type, one entry per type, in one place. The
 * mapped type makes the compiler refuse a type of NODE_TYPES without an entry, and an entry without one of its
 * parts. The other registries keyed by node type, each checked the same way: the config schemas
 * (`NODE_CONFIG_SCHEMAS`, nodeConfig.ts), the interpreter's parsers and runners (workflows/runs/configs.ts,
 * `executeNode` in workflows/runs/interpreter.ts) and the run picture's details (lib/picture/details.ts).
 */

/** What a node's save-time checks found: problems, and the child workflows it calls (resolved by the caller). */
export interface NodeBodies {
  problems: Problem[];
  subworkflows: SubworkflowReference[];
}

/** A node's body as its type's checks see it. */
export interface BodyCheck<C> {
  node: NodeDef;
  config: C;
  nodeIds: ReadonlySet<string>;
  scope: ReferenceScope;
  env: ValidationEnv;
  /** the node's path in problems (`dag.nodes[3]`) */
  base: string;
}

/** The rules that need the whole graph's node ids (branch targets, parallel members). */
export interface GraphRuleCheck<C> {
  nodeId: string;
  config: C;
  base: string;
  mentionedIds: ReadonlySet<string>;
  env: Pick<ValidationEnv, 'expressionProblems'>;
  /** shared by every node of one definition: which parallel branch claimed a node first */
  branchOwner: Map<string, string>;
}

export interface NodeTypeSpec<T extends NodeType> {
  /** The OpenAPI document's schema of the node (domain/workflows/documentation.ts): its id and what it does. */
  docs: { id: string; description: string };
  /**
   * Config keys a definition document may write at the node's top level (lib/dag/document.ts), and the other
   * spellings it accepts for them (alias → the model's key).
   */
  documentKeys: readonly string[];
  documentAliases?: Readonly<Record<string, string>>;
  /** Outputs every node of the type has, as the interpreter produces them (references to them are checked). */
  implicitOutputs: Readonly<Record<string, OutputType>>;
  /**
   * The outputs a node offers to references beyond the implicit ones; null when any name goes. Default: the
   * node-level `outputs` it declares.
   */
  outputs?(node: NodeDef, config: ConfigOf<T>, env: Pick<ValidationEnv, 'tool'>): Record<string, OutputType> | null;
  /** Save-time checks of the node's body against the graph: references, templates, tool configs, child calls. */
  checkBody(check: BodyCheck<ConfigOf<T>>): NodeBodies;
  /** Rules that need the set of the graph's node ids. */
  graphRules?(check: GraphRuleCheck<ConfigOf<T>>): Problem[];
  /** Nodes this node chooses between: implied edges from it to each (lib/dag/structure.ts). */
  branchTargets?(config: ConfigOf<T>): (string | undefined)[];
  /** Tools the node calls, as written (the definition's `tools` list). */
  toolsCalled?(config: ConfigOf<T>): string[];
}

/** A tool node's bindings: the node-level `inputs` first, then the tool config's, each with its own path. */
export function toolNodeBindings(node: NodeDef, config: ConfigOf<'tool'>, base: string): PlacedBinding[] {
  const nodeLevel = node.inputs?.length ?? 0;
  return toolBindings(node, config).inputs.map((binding, i) => ({
    binding,
    fromPath: `${base}.${i < nodeLevel ? `inputs[${i}]` : `config.inputs[${i - nodeLevel}]`}.from`,
  }));
}

/** Node-level `inputs` of a node that is not a tool (a tool's are among its bindings). */
function withNodeInputs(check: BodyCheck<unknown>, checked: NodeBodies): NodeBodies {
  const { node, scope, base } = check;
  const inputs = (node.inputs ?? []).flatMap((binding, i) => staticReference(scope, node.id, binding.from, `${base}.inputs[${i}].from`).problems);
  return { problems: [...checked.problems, ...inputs], subworkflows: checked.subworkflows };
}

const NONE: ReadonlySet<string> = new Set();

/** The tool a loop's or repeat's template calls, as written (valid or not). */
function templateTool(template: ConfigOf<'loop'>['template']): string[] {
  const tool = template.type === 'tool' ? (template.config as { tool?: unknown }).tool : undefined;
  return typeof tool === 'string' ? [tool] : [];
}

/** A condition's expression is a template in CEL: the names it uses are checked like any template's. */
function conditionReferenceProblems(check: BodyCheck<ConfigOf<'condition'>>): Problem[] {
  const { scope, env, node, config, base } = check;
  const path = `${base}.config.expression`;
  return [
    ...expressionReferenceProblems(scope, env, node.id, unwrapTemplate(config.expression), path, new Set()),
    ...misplacedSecretReferenceProblems(config.expression, path, 'conditions'),
  ];
}

export const NODE_TYPE_SPECS: { readonly [T in NodeType]: NodeTypeSpec<T> } = {
  tool: {
    docs: { id: 'ToolNode', description: 'Calls a registered tool' },
    documentKeys: ['tool', 'config', 'inputs', 'outputs', 'rate_limit'],
    implicitOutputs: {},
    outputs: (node, config, env) => {
      const out: Record<string, OutputType> = { ...env.tool(config.tool)?.outputs };
      for (const o of toolBindings(node, config).outputs) out[o.name] = o.type;
      return out;
    },
    // The tool's bindings include the node-level ones; they are checked there.
    checkBody: ({ scope, env, node, config, base }) => ({
      problems: toolBodyProblems(scope, env, node.id, config, toolNodeBindings(node, config, base), `${base}.config`, NONE),
      subworkflows: [],
    }),
    toolsCalled: (config) => [config.tool],
  },
  condition: {
    docs: { id: 'ConditionNode', description: 'Chooses a branch by a CEL expression' },
    documentKeys: ['expression', 'trueBranch', 'falseBranch', 'true_branch', 'false_branch'],
    documentAliases: { true_branch: 'trueBranch', false_branch: 'falseBranch' },
    implicitOutputs: { result: 'boolean', branch: 'string' },
    checkBody: (check) => withNodeInputs(check, { problems: conditionReferenceProblems(check), subworkflows: [] }),
    graphRules: ({ nodeId, config, base, mentionedIds, env }) => conditionProblems(nodeId, config, base, mentionedIds, env),
    branchTargets: (config) => [config.trueBranch, config.falseBranch],
  },
  switch: {
    docs: { id: 'SwitchNode', description: 'Chooses one of many branches by a value or by ordered conditions, with a default' },
    documentKeys: ['value', 'cases', 'default'],
    // `case`: the index of the case taken (null: the default, or no branch taken).
    implicitOutputs: { branch: 'string', case: 'integer' },
    checkBody: (check) =>
      withNodeInputs(check, { problems: switchReferenceProblems(check.scope, check.env, check.node.id, check.config, check.base), subworkflows: [] }),
    graphRules: ({ nodeId, config, base, mentionedIds, env }) => switchProblems(nodeId, config, base, mentionedIds, env),
    branchTargets: (config) => switchTargets(config),
  },
  wait: {
    docs: { id: 'WaitNode', description: 'Waits durably for a duration or until a time, then its successors run' },
    documentKeys: ['duration', 'until'],
    implicitOutputs: { until: 'string', waited_ms: 'integer' },
    checkBody: (check) =>
      withNodeInputs(check, { problems: waitProblems(check.scope, check.env, check.node.id, check.config, check.base), subworkflows: [] }),
  },
  wait_for_event: {
    docs: { id: 'WaitForEventNode', description: 'Waits durably for an event whose data matches, with a timeout; the event is its output' },
    documentKeys: ['event', 'match', 'timeout', 'on_timeout', 'lookback'],
    // `event`: { id, type, timestamp, data } (null when the timeout passed with on_timeout continue)
    implicitOutputs: { event: 'object', timed_out: 'boolean' },
    checkBody: (check) =>
      withNodeInputs(check, { problems: waitForEventProblems(check.scope, check.env, check.node.id, check.config, check.base), subworkflows: [] }),
  },
  approval: {
    docs: { id: 'ApprovalNode', description: 'Waits durably for people to approve or reject, with a timeout; the decision and its form are its output' },
    documentKeys: ['approvers', 'required', 'allow_self_approval', 'message', 'form', 'timeout', 'on_timeout', 'approved_branch', 'rejected_branch', 'timed_out_branch'],
    // `decision`: approved, rejected or timed_out; `form`: the deciding approval's values; `decisions`: every
    // approver's { user_id, decision, comment, at }; `branch`: the node taken (null: none)
    implicitOutputs: { decision: 'string', comment: 'string', form: 'object', decisions: 'array', approval_id: 'string', branch: 'string' },
    checkBody: (check) =>
      withNodeInputs(check, { problems: approvalProblems(check.scope, check.env, check.node.id, check.config, check.base), subworkflows: [] }),
    graphRules: ({ nodeId, config, base, mentionedIds }) => approvalBranchProblems(nodeId, config, base, mentionedIds),
    branchTargets: (config) => approvalTargets(config),
  },
  respond: {
    docs: { id: 'RespondNode', description: "Gives the sender of the webhook that started the run its HTTP answer, before the run ends" },
    documentKeys: ['status', 'content_type', 'headers', 'body'],
    // `sent`: false when another respond node of the run answered first (or the run was not started by a webhook's sender waiting)
    implicitOutputs: { status: 'integer', sent: 'boolean' },
    checkBody: (check) =>
      withNodeInputs(check, { problems: respondProblems(check.scope, check.env, check.node.id, check.config, check.base), subworkflows: [] }),
  },
  parallel: {
    docs: { id: 'ParallelNode', description: 'Starts branches together and joins them' },
    documentKeys: ['branches', 'joinStrategy', 'join_strategy', 'n'],
    documentAliases: { join_strategy: 'joinStrategy' },
    implicitOutputs: { branches: 'object', completed: 'array' },
    checkBody: (check) => withNodeInputs(check, { problems: [], subworkflows: [] }),
    graphRules: ({ nodeId, config, base, mentionedIds, branchOwner }) => [
      ...parallelBranchProblems(nodeId, config, base, mentionedIds, branchOwner),
      ...parallelJoinProblems(config, base),
    ],
  },
  loop: {
    docs: { id: 'LoopNode', description: 'Runs a template node once per item of a list' },
    documentKeys: ['items', 'iterator', 'template', 'concurrency', 'maxItems', 'max_items', 'continue_on_error'],
    documentAliases: { max_items: 'maxItems' },
    implicitOutputs: { results: 'array', count: 'integer' },
    // `failed` ({ index, code, message } per failed item) with continue_on_error only
    outputs: (node, config) => ({
      ...Object.fromEntries((node.outputs ?? []).map((o) => [o.name, o.type])),
      ...(config.continue_on_error ? { failed: 'array' as const } : {}),
    }),
    checkBody: (check) => withNodeInputs(check, loopNodeChecks(check.scope, check.env, check.node.id, check.config, check.base, check.nodeIds)),
    toolsCalled: (config) => templateTool(config.template),
  },
  repeat: {
    docs: { id: 'RepeatNode', description: 'Runs a template node while (or until) a condition holds, up to a maximum number of iterations' },
    documentKeys: ['template', 'while', 'until', 'max_iterations'],
    // `last`: the last iteration's output; `count`: iterations run; `exhausted`: it stopped at max_iterations
    implicitOutputs: { last: 'any', count: 'integer', exhausted: 'boolean' },
    checkBody: (check) => withNodeInputs(check, repeatNodeChecks(check.scope, check.env, check.node.id, check.config, check.base)),
    toolsCalled: (config) => templateTool(config.template),
  },
  subworkflow: {
    docs: { id: 'SubworkflowNode', description: 'Runs another workflow as a child run' },
    documentKeys: ['workflow_id', 'workflowId', 'inputs', 'inherit_context', 'inheritContext'],
    documentAliases: { workflowId: 'workflow_id', inheritContext: 'inherit_context' },
    // The child's results (keyed by its exit nodes), unknown here: any name goes unless `outputs` are declared.
    implicitOutputs: {},
    outputs: (node) => (node.outputs?.length ? Object.fromEntries(node.outputs.map((o) => [o.name, o.type])) : null),
    checkBody: (check) => {
      const body = subworkflowBody(check.scope, check.env, check.node.id, check.config, `${check.base}.config`, NONE);
      return withNodeInputs(check, { problems: body.problems, subworkflows: [body.reference] });
    },
  },
};

/** The entry of a node's type, typed by it (the union of entries cannot be called with a config of one type). */
export function specOf<T extends NodeType>(type: T): NodeTypeSpec<T> {
  return NODE_TYPE_SPECS[type] as NodeTypeSpec<T>;
}
