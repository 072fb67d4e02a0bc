import { z } from 'zod';
import { durationBetween } from './durationText';
import type { FlowControl } from './flowControl';

/**
 * The workflow model shared by the API (validation, storage), the interpreter workflow (execution) and the tools.
 * Shapes follow the spec's Workflow, DirectedAcyclicGraph, Node, Edge, Trigger and error_handling sections.
 * This file is pure (no Node APIs): it is bundled into workflow code.
 *
 * Semantics (documented in docs/workflows.md):
 * - An edge `from -> to` means `to` waits for `from`. Condition nodes imply edges to their branches.
 * - A node runs when every predecessor has finished and at least one completed; when all its predecessors were
 *   skipped (or failed and were dead-lettered), it is skipped too. Entry points have no predecessors.
 * - Parallel: `branches[].nodes` are ids of nodes in the graph; they start when the parallel node starts, and the
 *   parallel node finishes by its join strategy; its successors wait for that.
 * - Loop: `template` is a node definition run once per item of `items`, with `${<iterator>}` bound to the item.
 */

export const NODE_TYPES = ['tool', 'condition', 'switch', 'wait', 'wait_for_event', 'approval', 'respond', 'parallel', 'loop', 'repeat', 'subworkflow'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const NODE_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const nodeId = z.string().regex(NODE_ID, 'node ids are 1-64 letters, digits, _ or -, starting with a letter or _');

export const BACKOFFS = ['exponential', 'linear', 'fixed'] as const;

export const retryPolicySchema = z.strictObject({
  max_attempts: z.number().int().min(1).max(100).optional(),
  backoff: z.enum(BACKOFFS).optional(),
  /** milliseconds */
  initial_delay: z.number().int().min(0).max(3_600_000).optional(),
  /** milliseconds */
  max_delay: z.number().int().min(0).max(86_400_000).optional(),
  /** per attempt, milliseconds */
  timeout: z.number().int().min(100).max(86_400_000).optional(),
  non_retryable_errors: z.array(z.string().max(100)).max(50).optional(),
}).meta({ id: 'RetryPolicy', description: 'How a node retries: attempts, backoff, delays and timeout in milliseconds' });
export type RetryPolicy = z.infer<typeof retryPolicySchema>;

export const ioDeclSchema = z.strictObject({
  name: z.string().min(1).max(100),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array', 'any']).optional().default('any'),
  description: z.string().max(1000).optional(),
}).meta({ id: 'IoDeclaration', description: 'A declared output (or input) of a node: its name and type' });

/** `<node_id>.<output_name>` (also `params.<name>` for a workflow parameter). */
export const REFERENCE = /^([A-Za-z_][A-Za-z0-9_-]{0,63})\.([A-Za-z_][A-Za-z0-9_]{0,99})$/;

export const inputBindingSchema = z.strictObject({
  /** Name of the tool input field that receives the value; defaults to the output name of the reference. */
  name: z.string().min(1).max(100).optional(),
  from: z.string().regex(REFERENCE, 'references look like <node_id>.<output_name>'),
}).meta({ id: 'InputBinding', description: 'Feeds a tool input from another node\'s output (`<node_id>.<output>`) or a parameter (`params.<name>`)' });

/** The most calls one rate limit lets start per period (docs/runs.md#rate-limits-on-destinations). */
export const RATE_LIMIT_MAX_REQUESTS = 10_000;
/** A rate limit's period: from 100 ms to 1 hour. */
export const RATE_LIMIT_MIN_PERIOD_MS = 100;
export const RATE_LIMIT_MAX_PERIOD_MS = 3_600_000;

/** A rate limit's `per`: a duration from 100ms to 1h, such as 1s or 1m. */
export const ratePeriodSchema = durationBetween(RATE_LIMIT_MIN_PERIOD_MS, RATE_LIMIT_MAX_PERIOD_MS, '100ms to 1h', '1s or 1m');

export const rateLimitSchema = z.strictObject({
  /** calls that may start per period, 1-10,000 */
  requests: z.number().int().min(1).max(RATE_LIMIT_MAX_REQUESTS),
  /** the period: 100ms to 1h ("1s", "1m") */
  per: ratePeriodSchema,
  /** calls with the same key share one limit across the organization; without one, calls to the same destination host do */
  key: z.string().min(1).max(200).optional(),
}).meta({
  id: 'ToolRateLimit',
  description:
    "At most `requests` calls of this node start per `per`, shared by every run of the organization: with a `key`, by every call declaring that key; without one, by every call to the same destination host. A call waits for its turn (the node state shows `waiting_for`), it never fails for it",
});
export type RateLimitDecl = z.infer<typeof rateLimitSchema>;

export const toolConfigSchema = z.strictObject({
  tool: z.string().min(1).max(100),
  config: z.record(z.string(), z.unknown()).optional().default({}),
  inputs: z.array(inputBindingSchema).max(100).optional().default([]),
  outputs: z.array(ioDeclSchema).max(100).optional().default([]),
  /** the node's own rate limit (docs/runs.md#rate-limits-on-destinations) */
  rate_limit: rateLimitSchema.optional(),
}).meta({ id: 'ToolNodeConfig', description: 'A tool node: the registered tool to call (GET /api/v1/tools), its config and bindings' });

export const conditionConfigSchema = z.strictObject({
  expression: z.string().min(1).max(4000),
  trueBranch: nodeId.optional(),
  falseBranch: nodeId.optional(),
}).meta({ id: 'ConditionNodeConfig', description: 'A CEL expression; the branch not taken is skipped' });

/** At most this many cases per switch node. */
export const MAX_SWITCH_CASES = 100;

export const switchCaseSchema = z.strictObject({
  /** value mode: the case matches when the switch's `value` equals this (JSON equality) */
  equals: z.unknown().optional(),
  /** condition mode: a CEL expression; the first case whose expression is true matches */
  when: z.string().min(1).max(4000).optional(),
  /** the node this case leads to */
  next: nodeId,
}).meta({ id: 'SwitchCase', description: 'One branch of a switch: `equals` (value mode) or `when` (conditions in order), and the node it leads to' });

export const switchConfigSchema = z.strictObject({
  /** value mode: a CEL expression whose result is compared with each case's `equals`; absent: condition mode */
  value: z.string().min(1).max(4000).optional(),
  cases: z.array(switchCaseSchema).min(1).max(MAX_SWITCH_CASES),
  /** the node taken when no case matches; without one, every branch is skipped */
  default: nodeId.optional(),
}).meta({ id: 'SwitchNodeConfig', description: 'Many branches: by the value of an expression, or by ordered conditions, with a default; branches not taken are skipped' });

export const waitConfigSchema = z.strictObject({
  /** how long to wait: "30s", "15m", "2h", "7d" (at most 366d) */
  duration: z.string().min(1).max(50).optional(),
  /** until when: an ISO 8601 time, or a `${...}` template over parameters and earlier outputs giving one (or epoch milliseconds) */
  until: z.string().min(1).max(4000).optional(),
}).meta({ id: 'WaitNodeConfig', description: 'Waits durably for a duration or until a time (fixed, or computed from parameters and earlier outputs); give one of the two' });

export const waitForEventConfigSchema = z.strictObject({
  /** the event type to wait for, as published (POST /api/v1/events) or emitted by the platform */
  event: z.string().min(1).max(200).regex(/^[A-Za-z0-9_.:-]+$/, 'an event type: letters, digits, _ . : -'),
  /** a CEL condition over `event` (its id, type, timestamp, data), parameters and earlier outputs; absent: any event of the type */
  match: z.string().min(1).max(4000).optional(),
  /** how long to wait at most ("24h" by default; at most 366d) */
  timeout: z.string().min(1).max(50).optional().default('24h'),
  /** when the timeout passes: fail the node (WAIT_TIMEOUT) or continue with `timed_out: true` */
  on_timeout: z.enum(['fail', 'continue']).optional().default('fail'),
  /** events published up to this long before the node started count too (default 0s: since it started; at most 7d) */
  lookback: z.string().min(1).max(50).optional().default('0s'),
}).meta({ id: 'WaitForEventNodeConfig', description: 'Waits durably for an event whose data matches, with a timeout; the event is the node\'s output' });

/** The kinds of value an approval form field takes (the decision's `values`, checked against them). */
export const APPROVAL_FIELD_TYPES = ['string', 'number', 'boolean', 'choice'] as const;

export const approvalFieldSchema = z.strictObject({
  /** the key of the value in the node's output `form` (a CEL identifier) */
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a field name is 1-64 letters, digits or _, starting with a letter or _'),
  /** what the person sees beside the field (default: the name) */
  label: z.string().min(1).max(200).optional(),
  type: z.enum(APPROVAL_FIELD_TYPES),
  /** the values a `choice` field offers */
  options: z.array(z.string().min(1).max(200)).min(1).max(50).optional(),
  /** an approval needs a value for it (a rejection never does) */
  required: z.boolean().optional().default(false),
}).meta({ id: 'ApprovalFormField', description: 'A field the approver fills in; its value is in the node output `form.<name>`' });

export const approvalConfigSchema = z.strictObject({
  /** who may decide: members of at least `role` (owner > admin > member > viewer), the listed `users`, or both */
  approvers: z.strictObject({
    role: z.enum(['owner', 'admin', 'member', 'viewer']).optional(),
    users: z.array(z.string().uuid()).min(1).max(50).optional(),
  }),
  /** approvals needed (N of M); one rejection rejects */
  required: z.number().int().min(1).max(20).optional().default(1),
  /** the person who started the run (for an API key: its creator) may decide too; off by default (four eyes) */
  allow_self_approval: z.boolean().optional().default(false),
  /** what the approvers read: text, or a `${...}` template over parameters and earlier outputs */
  message: z.string().min(1).max(4000).optional(),
  /** fields an approver fills in; later nodes read them as `nodes.<id>.output.form.<name>` */
  form: z.array(approvalFieldSchema).max(20).optional().default([]),
  /** how long to wait for the decision ("24h" by default; from 1s to 366d) */
  timeout: z.string().min(1).max(50).optional().default('24h'),
  /** when the timeout passes: fail the node (APPROVAL_TIMED_OUT), count it as a rejection, or take `timed_out_branch` */
  on_timeout: z.enum(['fail', 'reject', 'branch']).optional().default('fail'),
  /** the node taken when approved (the other branches are skipped) */
  approved_branch: nodeId.optional(),
  /** the node taken when rejected; without one, a rejection fails the node (APPROVAL_REJECTED) */
  rejected_branch: nodeId.optional(),
  /** the node taken when the timeout passes with on_timeout `branch` */
  timed_out_branch: nodeId.optional(),
}).meta({
  id: 'ApprovalNodeConfig',
  description: 'Waits durably for people to approve or reject (roles or users, N of M, four eyes, a form), with a timeout; approvers are notified by mail and by the approval.requested event',
});

export const respondConfigSchema = z.strictObject({
  /** the HTTP status the sender gets (200 by default) */
  status: z.number().int().min(200).max(599).optional().default(200),
  /** application/json (default: `body` is sent as JSON), text/plain or text/csv (`body` is sent as text) */
  content_type: z.enum(['application/json', 'text/plain', 'text/csv']).optional().default('application/json'),
  /** headers by name: `x-...` headers and cache-control, content-language, retry-after, etag, last-modified, expires, vary; values may be `${...}` templates */
  headers: z.record(z.string().min(1).max(64), z.string().max(1000)).optional().default({}),
  /** the body: any JSON value, `${...}` templates over parameters and earlier outputs rendered */
  body: z.unknown().optional(),
}).meta({ id: 'RespondNodeConfig', description: "For webhook-started runs: the HTTP answer (status, headers, body) the webhook's sender gets as soon as this node runs" });

export const JOIN_STRATEGIES = ['wait_all', 'wait_any', 'wait_n'] as const;

export const parallelConfigSchema = z.strictObject({
  branches: z
    .array(z.strictObject({ id: z.string().min(1).max(64), nodes: z.array(nodeId).min(1).max(500) }))
    .min(1)
    .max(100),
  joinStrategy: z.enum(JOIN_STRATEGIES).optional().default('wait_all'),
  n: z.number().int().min(1).optional(),
}).meta({ id: 'ParallelNodeConfig', description: 'Branches of node ids started together, finished by the join strategy' });

export const subworkflowConfigSchema = z.strictObject({
  workflow_id: z.string().uuid(),
  inputs: z.record(z.string(), z.unknown()).optional().default({}),
  inherit_context: z.boolean().optional().default(false),
}).meta({ id: 'SubworkflowNodeConfig', description: 'Runs another workflow of the organization as a child run' });

/** A loop template is a node definition without an id of its own (it gets `<loopId>[<index>]`). */
export const loopTemplateSchema = z.strictObject({
  type: z.enum(['tool', 'subworkflow']),
  config: z.record(z.string(), z.unknown()),
  retryPolicy: retryPolicySchema.optional(),
}).meta({ id: 'LoopTemplate', description: 'The node run once per item (a tool or subworkflow node without an id)' });

export const loopConfigSchema = z.strictObject({
  /** A reference `<node_id>.<output>` / `params.<name>`, or a `${...}` expression yielding a list. */
  items: z.string().min(1).max(4000),
  iterator: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/).optional().default('item'),
  template: loopTemplateSchema,
  concurrency: z.number().int().min(1).max(100).optional().default(10),
  maxItems: z.number().int().min(1).max(100_000).optional().default(10_000),
  /** true: a failed item does not stop the others; its result is null and it is listed in the output's `failed` */
  continue_on_error: z.boolean().optional().default(false),
}).meta({ id: 'LoopNodeConfig', description: 'Runs the template once per item of `items`, `${<iterator>}` bound to the item' });

export const repeatConfigSchema = z.strictObject({
  /** the node run at each iteration (a tool or subworkflow node without an id); `${last}` is the previous output, `${last_index}` its iteration */
  template: loopTemplateSchema,
  /** CEL checked before each iteration: it runs while this holds (`last` is null before the first) */
  while: z.string().min(1).max(4000).optional(),
  /** CEL checked after each iteration over its output (`last`): the repeat ends once this holds */
  until: z.string().min(1).max(4000).optional(),
  /** at most this many iterations (1–1000, default 100); reaching it ends the repeat, `exhausted: true` */
  max_iterations: z.number().int().min(1).max(1000).optional().default(100),
}).meta({ id: 'RepeatNodeConfig', description: 'Runs a template node again and again while (or until) a condition holds, up to a maximum number of iterations' });

export const nodeSchema = z.strictObject({
  id: nodeId,
  type: z.enum(NODE_TYPES),
  name: z.string().max(200).optional(),
  config: z.record(z.string(), z.unknown()),
  /** Node-level inputs/outputs (spec): merged with the tool config's `inputs`/`outputs`. */
  inputs: z.array(inputBindingSchema).max(100).optional(),
  outputs: z.array(ioDeclSchema).max(100).optional(),
  retryPolicy: retryPolicySchema.optional(),
});
export type NodeDef = z.infer<typeof nodeSchema>;

export const edgeSchema = z
  .strictObject({ from: nodeId, to: nodeId })
  .meta({ id: 'Edge', description: '`to` waits for `from`' });
export type Edge = z.infer<typeof edgeSchema>;

export const dagSchema = z.strictObject({
  nodes: z.array(nodeSchema).min(1).max(2000),
  edges: z.array(edgeSchema).max(10_000).optional().default([]),
  entryPoints: z.array(nodeId).max(2000).optional(),
  exitPoints: z.array(nodeId).max(2000).optional(),
});
export type Dag = z.infer<typeof dagSchema>;

/** How long a dead letter is kept: a duration from 1m to 365d ("7d" by default); "0s" would hide it at once. */
const deadLetterRetention = durationBetween(60_000, 365 * 86_400_000, '1m to 365d', '7d or 12h')
  .optional()
  .default('7d');

export const STRATEGIES = ['retry', 'fail_fast', 'dead_letter_queue', 'circuit_breaker', 'fallback'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export const circuitBreakerSchema = z.strictObject({
  threshold: z.number().int().min(1).max(1000).optional().default(5),
  /** open duration, milliseconds (the spec's example is 30 s) */
  timeout: z.number().int().min(100).max(86_400_000).optional().default(30_000),
  half_open_requests: z.number().int().min(1).max(100).optional().default(3),
  /** calls with the same key share one breaker; without one, a tool's calls share one per destination host */
  key: z.string().min(1).max(200).optional(),
}).meta({ id: 'CircuitBreakerConfig', description: 'Opens after `threshold` consecutive failures of a tool, for `timeout` milliseconds' });

export const strategySchema = z.strictObject({
  strategy: z.enum(STRATEGIES),
  circuit_breaker: circuitBreakerSchema.optional(),
  /** fallback: a tool name, or the id of a node of the graph whose output replaces the failed node's */
  handler: z.string().min(1).max(100).optional(),
  /** fallback with a tool handler: its config */
  handler_config: z.record(z.string(), z.unknown()).optional(),
  dead_letter_queue: z
    .strictObject({
      queue: z.string().min(1).max(100).optional().default('default'),
      retention: deadLetterRetention,
    })
    .optional(),
}).meta({ id: 'NodeErrorStrategy', description: 'The error strategy of one node (error_handling.node_overrides)' });

export const errorHandlingSchema = z.strictObject({
  default_strategy: z.enum(STRATEGIES).optional().default('retry'),
  retry_config: z
    .strictObject({
      max_attempts: z.number().int().min(1).max(100).optional().default(3),
      backoff: z.enum(BACKOFFS).optional().default('exponential'),
      initial_delay: z.number().int().min(0).max(3_600_000).optional().default(1000),
    })
    .optional(),
  circuit_breaker: circuitBreakerSchema.optional(),
  dead_letter_queue: z
    .strictObject({
      queue: z.string().min(1).max(100).optional().default('default'),
      retention: deadLetterRetention,
    })
    .optional(),
  node_overrides: z.record(nodeId, strategySchema).optional().default({}),
}).meta({ id: 'ErrorHandling', description: 'What happens when a node fails: the default strategy and per-node overrides' });
export type ErrorHandling = z.infer<typeof errorHandlingSchema>;

export const PARAMETER_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;

export const parameterSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/),
  type: z.enum(PARAMETER_TYPES),
  required: z.boolean().optional().default(false),
  description: z.string().max(1000).optional(),
  default: z.unknown().optional(),
  enum: z.array(z.unknown()).min(1).max(1000).optional(),
}).meta({ id: 'Parameter', description: 'A declared run parameter' });
export type ParameterDecl = z.infer<typeof parameterSchema>;

export const TRIGGER_TYPES = ['schedule', 'webhook', 'event', 'manual'] as const;

export const triggerSchema = z.strictObject({
  id: z.string().min(1).max(64).optional(),
  type: z.enum(TRIGGER_TYPES),
  config: z.record(z.string(), z.unknown()).optional().default({}),
  enabled: z.boolean().optional().default(true),
}).meta({ id: 'Trigger', description: 'What starts runs: a schedule (cron), a webhook, an event or a manual start (docs/triggers.md)' });
export type Trigger = z.infer<typeof triggerSchema>;

export const WORKFLOW_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * What a run view shows: a stored status, or `cancelling` while an open run settles the cancellation it was asked for
 * (its running nodes acknowledge theirs; docs/runs.md#cancellation). Never stored: the run ends `cancelled`.
 */
export const RUN_VIEW_STATUSES = [...RUN_STATUSES, 'cancelling'] as const;
export type RunViewStatus = (typeof RUN_VIEW_STATUSES)[number];

export const NODE_STATUSES = ['pending', 'running', 'completed', 'failed', 'skipped', 'cancelled'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

export interface NodeState {
  status: NodeStatus;
  attempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  output: unknown;
  error: { code: string; message: string } | null;
  /** set when the output came from a fallback handler or a reused run */
  via?: 'fallback' | 'reused' | 'dead_letter';
  /** subworkflow nodes: the child's run id (its workflow_runs row and Temporal workflow id) */
  child_run_id?: string;
  /** loop nodes: how many items the loop has and how many finished, kept up to date while it runs */
  items?: { total: number; done: number };
  /** wait, wait_for_event and approval nodes: the time the node waits until (ISO 8601; for an event or approval, its timeout), set when its wait starts */
  waiting_until?: string;
  /** approval nodes: the approval's id (GET /api/v1/approvals/{id}), set when its wait starts */
  approval_id?: string;
  /**
   * tool nodes: set, with `waiting_until` (the turn's time), while the node waits for its turn under rate limits
   * (`limits`: `host:<host>`, `key:<key>`, `tool:<tool>`); both are removed when its call starts
   */
  waiting_for?: NodeWaitReason;
}

/** Why a running tool node waits (docs/runs.md#rate-limits-on-destinations). */
export interface NodeWaitReason {
  reason: 'rate_limit';
  limits: string[];
}

export interface RunError {
  node: string | null;
  code: string;
  message: string;
  attempt: number;
  time: string;
}

/**
 * What the interpreter executes: one immutable version of a workflow, compiled and validated by the API.
 * It travels as the workflow's input, so Temporal history pins the version a run executes.
 */
export interface CompiledWorkflow {
  workflowId: string;
  organizationId: string;
  version: number;
  name: string;
  dag: Dag & { entryPoints: string[]; exitPoints: string[] };
  parameters: ParameterDecl[];
  errorHandling: ErrorHandling;
  /** Ids of the registered tools the workflow uses (declared and referenced by nodes). */
  tools?: string[];
  triggers?: Trigger[];
  /** Flow control of the workflow's runs (lib/dag/flowControl.ts); absent: none. */
  flow?: FlowControl;
}

/** What `workflow_versions.definition` stores: one immutable, validated version (see db/migrations/0300). */
export interface StoredDefinition {
  dag: CompiledWorkflow['dag'];
  tools: string[];
  triggers: Trigger[];
  parameters: ParameterDecl[];
  errorHandling: ErrorHandling;
  /** absent in definitions saved without flow control (and in every one saved before it existed) */
  flow?: FlowControl;
}
