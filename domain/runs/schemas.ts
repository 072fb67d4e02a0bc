import { z } from 'zod';
import { NODE_ID, NODE_STATUSES, RUN_STATUSES, RUN_VIEW_STATUSES } from '../../lib/dag/model';
import { parseDuration } from '../../lib/duration';
import { flowControlSchema, runPrioritySchema } from '../../lib/dag/flowControl';
import { pageQuerySchema } from '../../lib/pagination';
import { isoTimestamp } from '../../lib/timestamps';

export const workflowParams = z.object({ id: z.string().max(100) });
export const runParams = z.object({ id: z.string().max(100), run_id: z.string().max(100) });

export const startRunBody = z.strictObject({
  parameters: z.record(z.string(), z.unknown()).optional().default({}).describe('parameter name → value, as declared by the workflow'),
  priority: runPrioritySchema
    .optional()
    .describe("1 (first) to 5 (last): the order in which the workflow's flow control starts queued runs; default the workflow's (docs/runs.md#priority)"),
});

export const listRunsQuery = pageQuerySchema.extend({ status: z.enum(RUN_STATUSES).optional() });

/**
 * Run and wait (docs/runs.md#run-and-wait): how long the answer may wait for the run to finish, in milliseconds.
 * `30s`, `1500ms`, `1m` or a bare number of seconds (`30`, as in `Prefer: wait=30`); capped at RUN_WAIT_MAX.
 */
export const waitParam = z
  .string()
  .max(20)
  .transform((text, ctx) => {
    try {
      return parseDuration(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'a duration such as 30s, 1500ms or a number of seconds' });
      return z.NEVER;
    }
  });

export const startRunQuery = z.object({
  wait: waitParam
    .optional()
    .describe(
      'Run and wait: answer once the run has finished (200, the finished run with results and errors), or after ' +
        'this long with the run as it is (202, Location). `30s`, `1500ms`, or seconds (`30`); at most RUN_WAIT_MAX ' +
        '(60 s by default; longer waits are shortened to it). Same as the header `Prefer: wait=<seconds>` (RFC 7240).',
    ),
});

/**
 * `name=value` of the run list's parameter filter, as the JSON objects a run's parameters must contain for it: the
 * string value, and the number or boolean the text also spells (`3`, `true`), either of which matches.
 */
const parameterMatch = z
  .string()
  .max(1100)
  .transform((text, ctx) => {
    const at = text.indexOf('=');
    const name = at > 0 ? text.slice(0, at) : '';
    if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/.test(name)) {
      ctx.addIssue({ code: 'custom', message: 'name=value, with the name of a parameter (letters, digits, _ . -; at most 100 characters)' });
      return z.NEVER;
    }
    const value = text.slice(at + 1);
    if (value.length > 1000) {
      ctx.addIssue({ code: 'custom', message: 'the value is at most 1,000 characters' });
      return z.NEVER;
    }
    const alternatives: Record<string, unknown>[] = [{ [name]: value }];
    if (value === 'true' || value === 'false') alternatives.push({ [name]: value === 'true' });
    else if (/^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,15})?$/.test(value)) alternatives.push({ [name]: Number(value) });
    return alternatives;
  });

/** GET /api/v1/runs: the organization's runs across workflows, newest first. */
export const listAllRunsQuery = pageQuerySchema.extend({
  status: z.enum(RUN_STATUSES).optional(),
  workflow_id: z.uuid().optional().describe('only runs of this workflow'),
  trigger: z
    .string()
    .regex(/^[a-z_]{1,40}$/, 'a trigger type such as manual, webhook, schedule, event, retry, subworkflow')
    .optional()
    .describe('only runs started this way: `manual`, `webhook`, `schedule`, `event`, `retry`, `dead_letter_replay`, `subworkflow`'),
  created_after: isoTimestamp().optional().describe('only runs created at or after this time (ISO 8601)'),
  created_before: isoTimestamp().optional().describe('only runs created before this time (ISO 8601)'),
  run_id: z.uuid().optional().describe('only this run (a run id pasted from a log or a link: the list finds its workflow)'),
  parameter: parameterMatch
    .optional()
    .describe(
      'only runs started with this parameter value: `name=value`, e.g. `customer=acme`. The value matches a string ' +
        'parameter equal to it, or a number or boolean parameter spelt so (`count=3`, `dryRun=true`); top-level ' +
        'parameters only, compared exactly.',
    ),
});
export type ListAllRunsQuery = z.output<typeof listAllRunsQuery>;

const nodeStateSchema = z.object({
  status: z.enum(NODE_STATUSES),
  attempts: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  output: z.unknown().describe('the node\'s outputs; values kept in object storage appear as { $ref, bytes, download_url }'),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  via: z.enum(['fallback', 'reused', 'dead_letter']).optional(),
  child_run_id: z
    .uuid()
    .optional()
    .describe('subworkflow nodes: the child run (a run of the child workflow, GET /api/v1/workflows/{child}/runs/{child_run_id})'),
  items: z
    .object({ total: z.number().int(), done: z.number().int() })
    .optional()
    .describe('loop nodes: how many items the loop has and how many finished, live while it runs (large loops count by batch)'),
  waiting_until: z
    .string()
    .optional()
    .describe('wait, wait_for_event and approval nodes: the time the node waits (or waited) until, ISO 8601; tool nodes: the time of their turn under a rate limit, while they wait for it'),
  waiting_for: z
    .object({ reason: z.enum(['rate_limit']), limits: z.array(z.string()) })
    .optional()
    .describe(
      'tool nodes, while they wait for their turn under rate limits on destinations (docs/runs.md#rate-limits-on-destinations): the limits (`host:<host>`, `key:<key>`, `tool:<tool>`); removed, with waiting_until, when the call starts',
    ),
  approval_id: z.string().optional().describe('approval nodes: the approval it waits for (GET /api/v1/approvals/{id})'),
}).meta({ id: 'NodeState', description: 'Where one node of a run stands: status, attempts, times, output or error' });

const runErrorSchema = z.object({
  node: z.string().nullable(),
  code: z.string(),
  message: z.string(),
  attempt: z.number().int(),
  time: z.string(),
}).meta({ id: 'RunError', description: 'An error of a run: the node (null for the run itself), code, message, attempt and time' });

const runBase = {
  id: z.uuid(),
  workflow_id: z.uuid(),
  workflow_version: z.number().int(),
  status: z
    .enum(RUN_VIEW_STATUSES)
    .describe('`cancelling`: a cancel was asked for and the run is stopping its running nodes; it ends `cancelled`'),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  duration: z.number().int().nullable().describe('milliseconds from started_at to completed_at (to now while open)'),
  trigger: z.object({ type: z.string() }).catchall(z.unknown()),
  awaiting_approval: z.boolean().describe('true while a manual run waits for an approver (trigger.approval holds the details)'),
  priority: z.number().int().nullable().describe('1 (first) to 5 (last), as the start, its trigger or the workflow set it; null: the default, 3'),
  flow: z
    .object({
      keys: z
        .object({ concurrency: z.string(), throttle: z.string(), debounce: z.string(), singleton: z.string() })
        .partial()
        .describe("the groups the workflow's flow control put the run in (absent: the workflow's one group)"),
      waiting_for: z
        .enum(['debounce', 'concurrency', 'throttle'])
        .nullable()
        .describe('a pending run held by its flow control: why (in a single run\'s view; null in lists and once it started)'),
      waiting_since: z.string().nullable(),
    })
    .nullable()
    .describe('runs of a workflow with flow control (docs/runs.md#flow-control); null for others'),
  retry_of: z.uuid().nullable(),
  parent: z
    .object({
      run_id: z.uuid(),
      workflow_id: z.uuid(),
      node_id: z.string().describe('the parent\'s subworkflow node (`<loop>[<i>]` for an item of a loop whose template is a subworkflow)'),
    })
    .nullable()
    .describe('subworkflow runs (`trigger.type: "subworkflow"`): the run that started this one; null for other runs and once the parent run was deleted'),
  created_by: z.uuid().nullable(),
  created_at: z.string(),
  links: z.object({
    temporal: z.string().describe('the execution in Temporal Web'),
    picture: z
      .string()
      .describe(
        'the run picture: an HTML page of the DAG, each node coloured by its state (it asks for a token, or takes ' +
          'one as `#token=...`); the SVG alone is GET /api/v1/workflows/{id}/runs/{run_id}/picture.svg',
      ),
    console: z.string().describe('the run in the web console (docs/console.md): picture, node details and actions, after signing in'),
  }),
  errors: z.array(runErrorSchema),
};

export const runSummarySchema = z
  .object({ ...runBase, workflow_name: z.string().nullable().describe('the workflow\'s name now (runs of a renamed workflow show its new name)') })
  .meta({ id: 'RunSummary', description: 'A run as listed: without parameters, node states and results' });

export const runSchema = z.object({
  ...runBase,
  parameters: z.record(z.string(), z.unknown()),
  node_states: z.record(z.string(), nodeStateSchema),
  results: z.record(z.string(), z.unknown()).describe('outputs of the exit nodes that completed'),
}).meta({ id: 'Run', description: 'A run of one version of a workflow, with its node states and results' });

/**
 * A webhook caller's answer once its run has finished (run and wait through a webhook trigger, docs/triggers.md):
 * the end of the run, without its parameters and node states.
 */
export const runOutcomeSchema = z.object({
  run_id: z.uuid(),
  workflow_id: z.uuid(),
  status: z.enum(RUN_STATUSES),
  results: z.record(z.string(), z.unknown()).describe('outputs of the exit nodes that completed'),
  errors: z.array(runErrorSchema),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  duration: z.number().int().nullable().describe('milliseconds from started_at to completed_at'),
});

export const deadLetterSchema = z.object({
  id: z.uuid(),
  workflow_id: z.uuid(),
  workflow_version: z.number().int(),
  run_id: z.uuid(),
  node_id: z.string(),
  queue: z.string(),
  tool: z.string().nullable(),
  input: z.unknown().describe('the node\'s resolved input (tool nodes) or its config'),
  error: z.object({ code: z.string(), message: z.string() }),
  attempts: z.number().int(),
  status: z.enum(['pending', 'replayed']),
  replay_run_id: z.uuid().nullable(),
  replayed_at: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});

export const listDeadLettersQuery = pageQuerySchema.extend({
  workflow_id: z.string().max(100).optional(),
  run_id: z.string().max(100).optional(),
  queue: z.string().max(100).optional(),
  status: z.enum(['pending', 'replayed']).optional(),
});

export const circuitBreakerSchema = z.object({
  tool: z.string(),
  scope: z.string().describe('what the breaker covers: `key:<name>` (a node\'s circuit_breaker.key), a destination host (`api.partner.com:443`), or "" for the tool as a whole'),
  state: z.enum(['closed', 'open', 'half_open']),
  consecutive_failures: z.number().int(),
  opened_at: z.string().nullable(),
  half_opens_at: z.string().nullable().describe('when an open circuit lets trial calls through'),
  half_open_attempts: z.number().int(),
  half_open_successes: z.number().int(),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  updated_at: z.string(),
});

/** What the runs domain answers with: the response schemas above are the one description of these shapes. */
export type NodeStateView = z.infer<typeof nodeStateSchema>;
export type RunErrorView = z.infer<typeof runErrorSchema>;
/** A run as listed: without parameters, node states and results. */
export type RunSummaryView = z.infer<typeof runSummarySchema>;
export type RunView = z.infer<typeof runSchema>;
export type RunOutcomeView = z.infer<typeof runOutcomeSchema>;
export type DeadLetterView = z.infer<typeof deadLetterSchema>;
export type CircuitBreakerView = z.infer<typeof circuitBreakerSchema>;

export const rerunBody = z
  .strictObject({
    from_node: z.string().regex(NODE_ID, 'a node id').optional().describe('the node to run again, with everything after it; absent: every node runs again'),
    parameters: z.record(z.string(), z.unknown()).optional().describe('parameters to change: merged over the original run\'s, then checked'),
    version: z
      .union([z.literal('original'), z.literal('latest'), z.number().int().min(1)])
      .optional()
      .describe('the workflow version to run: the original run\'s (default), the latest, or a number'),
    node_input: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "with from_node (a tool node): that node's input for this rerun, exactly as the tool receives it (its config and bindings are replaced); literal values, checked against the tool's input schema; secret references only where the tool takes them",
      ),
  })
  .meta({ id: 'RerunRequest', description: 'How to rerun a finished run: from which node, with which parameters, on which version' });
export type RerunBody = z.output<typeof rerunBody>;

export const flowStateSchema = z
  .object({
    workflow_id: z.uuid(),
    flow: flowControlSchema.nullable().describe("the current version's flow control; null: none (runs of older versions may still be held)"),
    groups: z
      .array(
        z.object({
          key: z.string().describe("the concurrency group ('' for the workflow's one group)"),
          running: z.number().int().describe('runs admitted and not yet ended'),
          waiting: z.number().int().describe('runs queued for concurrency or throttle'),
          debouncing: z.number().int().describe('runs waiting for their burst to end (debounce `last`)'),
        }),
      )
      .describe('what the flow gate holds now, per key; empty when it holds nothing'),
  })
  .meta({ id: 'FlowState', description: "What a workflow's flow control holds now: running, queued and debounced runs per key" });
export type FlowStateView = z.infer<typeof flowStateSchema>;
