import type { ApprovalConfig, ConditionConfig, RespondConfig, LoopConfig, ParallelConfig, RepeatConfig, SubworkflowConfig, SwitchConfig, ToolConfig, WaitConfig, WaitForEventConfig } from '../../lib/dag/nodeConfig';

/**
 * Node configs as the interpreter reads them, with the defaults of lib/dag/model.ts's schemas applied, without
 * zod. Workflow code is evaluated afresh for every execution a worker creates (each gets its own module state),
 * and building zod and the model's schemas cost ~30 ms of worker CPU per run: as much as the rest of a 1-node run.
 * The API validated the definition with those schemas when it was saved, so this only fills in defaults and checks
 * the fields the interpreter relies on; test/unit/runs-configs.test.ts holds it to the schemas' output.
 * Only types come from lib/dag (erased at build time).
 */

export type { ApprovalConfig, ConditionConfig, RespondConfig, LoopConfig, ParallelConfig, RepeatConfig, SubworkflowConfig, SwitchConfig, ToolConfig, WaitConfig, WaitForEventConfig };

export class ConfigError extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function object(value: unknown, what: string): Json {
  if (!isObject(value)) throw new ConfigError(`${what} must be an object`);
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new ConfigError(`${what} must be a non-empty string`);
  return value;
}

function optionalText(value: unknown, what: string): string | undefined {
  return value === undefined ? undefined : text(value, what);
}

function list(value: unknown, what: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigError(`${what} must be a list`);
  return value;
}

function positiveInt(value: unknown, what: string): number {
  const n = optionalInt(value, what);
  if (n === undefined) throw new ConfigError(`${what} is required`);
  return n;
}

function optionalInt(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ConfigError(`${what} must be a positive integer`);
  return value;
}

export function parseToolConfig(raw: unknown): ToolConfig {
  const c = object(raw, 'config');
  return {
    tool: text(c.tool, 'tool'),
    config: c.config === undefined ? {} : object(c.config, 'config.config'),
    inputs: list(c.inputs, 'inputs').map((item, i) => {
      const b = object(item, `inputs[${i}]`);
      const name = optionalText(b.name, `inputs[${i}].name`);
      return { ...(name !== undefined ? { name } : {}), from: text(b.from, `inputs[${i}].from`) };
    }),
    outputs: list(c.outputs, 'outputs').map((item, i) => {
      const o = object(item, `outputs[${i}]`);
      const description = optionalText(o.description, `outputs[${i}].description`);
      return {
        name: text(o.name, `outputs[${i}].name`),
        type: (o.type ?? 'any') as ToolConfig['outputs'][number]['type'],
        ...(description !== undefined ? { description } : {}),
      };
    }),
    ...(c.rate_limit !== undefined ? { rate_limit: parseRateLimit(c.rate_limit) } : {}),
  };
}

/** A tool node's `rate_limit`: its bounds were checked when the definition was saved. */
function parseRateLimit(raw: unknown): NonNullable<ToolConfig['rate_limit']> {
  const r = object(raw, 'rate_limit');
  const key = optionalText(r.key, 'rate_limit.key');
  return {
    requests: positiveInt(r.requests, 'rate_limit.requests'),
    per: text(r.per, 'rate_limit.per'),
    ...(key !== undefined ? { key } : {}),
  };
}

export function parseConditionConfig(raw: unknown): ConditionConfig {
  const c = object(raw, 'config');
  const trueBranch = optionalText(c.trueBranch, 'trueBranch');
  const falseBranch = optionalText(c.falseBranch, 'falseBranch');
  return {
    expression: text(c.expression, 'expression'),
    ...(trueBranch !== undefined ? { trueBranch } : {}),
    ...(falseBranch !== undefined ? { falseBranch } : {}),
  };
}

export function parseSwitchConfig(raw: unknown): SwitchConfig {
  const c = object(raw, 'config');
  const cases = list(c.cases, 'cases').map((item, i) => {
    const k = object(item, `cases[${i}]`);
    const when = optionalText(k.when, `cases[${i}].when`);
    return {
      ...(Object.hasOwn(k, 'equals') ? { equals: k.equals } : {}),
      ...(when !== undefined ? { when } : {}),
      next: text(k.next, `cases[${i}].next`),
    };
  });
  if (cases.length === 0) throw new ConfigError('cases must not be empty');
  const value = optionalText(c.value, 'value');
  const fallback = optionalText(c.default, 'default');
  return { ...(value !== undefined ? { value } : {}), cases, ...(fallback !== undefined ? { default: fallback } : {}) };
}

export function parseWaitConfig(raw: unknown): WaitConfig {
  const c = object(raw, 'config');
  const duration = optionalText(c.duration, 'duration');
  const until = optionalText(c.until, 'until');
  if ((duration === undefined) === (until === undefined)) throw new ConfigError('give one of duration or until');
  return duration !== undefined ? { duration } : { until: until! };
}

export function parseWaitForEventConfig(raw: unknown): WaitForEventConfig {
  const c = object(raw, 'config');
  const match = optionalText(c.match, 'match');
  const onTimeout = c.on_timeout ?? 'fail';
  if (onTimeout !== 'fail' && onTimeout !== 'continue') throw new ConfigError('on_timeout must be fail or continue');
  return {
    event: text(c.event, 'event'),
    ...(match !== undefined ? { match } : {}),
    timeout: optionalText(c.timeout, 'timeout') ?? '24h',
    on_timeout: onTimeout,
    lookback: optionalText(c.lookback, 'lookback') ?? '0s',
  };
}

const APPROVER_ROLES = ['owner', 'admin', 'member', 'viewer'];
const FIELD_TYPES = ['string', 'number', 'boolean', 'choice'];

export function parseApprovalConfig(raw: unknown): ApprovalConfig {
  const c = object(raw, 'config');
  const a = object(c.approvers, 'approvers');
  const role = optionalText(a.role, 'approvers.role');
  if (role !== undefined && !APPROVER_ROLES.includes(role)) throw new ConfigError(`approvers.role must be one of ${APPROVER_ROLES.join(', ')}`);
  const users = a.users === undefined ? undefined : list(a.users, 'approvers.users').map((u, i) => text(u, `approvers.users[${i}]`));
  if (role === undefined && users === undefined) throw new ConfigError('approvers needs a role or users');
  const onTimeout = c.on_timeout ?? 'fail';
  if (onTimeout !== 'fail' && onTimeout !== 'reject' && onTimeout !== 'branch') throw new ConfigError('on_timeout must be fail, reject or branch');
  if (c.allow_self_approval !== undefined && typeof c.allow_self_approval !== 'boolean') throw new ConfigError('allow_self_approval must be a boolean');
  const form = list(c.form, 'form').map((item, i) => {
    const f = object(item, `form[${i}]`);
    const type = text(f.type, `form[${i}].type`);
    if (!FIELD_TYPES.includes(type)) throw new ConfigError(`form[${i}].type must be one of ${FIELD_TYPES.join(', ')}`);
    const label = optionalText(f.label, `form[${i}].label`);
    const options = f.options === undefined ? undefined : list(f.options, `form[${i}].options`).map((o, j) => text(o, `form[${i}].options[${j}]`));
    return {
      name: text(f.name, `form[${i}].name`),
      ...(label !== undefined ? { label } : {}),
      type: type as ApprovalConfig['form'][number]['type'],
      ...(options !== undefined ? { options } : {}),
      required: f.required === true,
    };
  });
  const message = optionalText(c.message, 'message');
  const branches = Object.fromEntries(
    (['approved_branch', 'rejected_branch', 'timed_out_branch'] as const).flatMap((key) => {
      const target = optionalText(c[key], key);
      return target === undefined ? [] : [[key, target]];
    }),
  ) as Pick<ApprovalConfig, 'approved_branch' | 'rejected_branch' | 'timed_out_branch'>;
  return {
    approvers: { ...(role !== undefined ? { role: role as NonNullable<ApprovalConfig['approvers']['role']> } : {}), ...(users !== undefined ? { users } : {}) },
    required: optionalInt(c.required, 'required') ?? 1,
    allow_self_approval: c.allow_self_approval === true,
    ...(message !== undefined ? { message } : {}),
    form,
    timeout: optionalText(c.timeout, 'timeout') ?? '24h',
    on_timeout: onTimeout,
    ...branches,
  };
}

const RESPOND_TYPES = ['application/json', 'text/plain', 'text/csv'];

export function parseRespondConfig(raw: unknown): RespondConfig {
  const c = object(raw, 'config');
  const status = c.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) throw new ConfigError('status must be an integer from 200 to 599');
  const contentType = c.content_type ?? 'application/json';
  if (typeof contentType !== 'string' || !RESPOND_TYPES.includes(contentType)) throw new ConfigError(`content_type must be one of ${RESPOND_TYPES.join(', ')}`);
  const headers = c.headers === undefined ? {} : object(c.headers, 'headers');
  for (const [name, value] of Object.entries(headers)) if (typeof value !== 'string') throw new ConfigError(`headers.${name} must be a string`);
  return {
    status,
    content_type: contentType as RespondConfig['content_type'],
    headers: headers as Record<string, string>,
    ...(Object.hasOwn(c, 'body') ? { body: c.body } : {}),
  };
}

export function parseParallelConfig(raw: unknown): ParallelConfig {
  const c = object(raw, 'config');
  const branches = list(c.branches, 'branches').map((item, i) => {
    const b = object(item, `branches[${i}]`);
    return { id: text(b.id, `branches[${i}].id`), nodes: list(b.nodes, `branches[${i}].nodes`).map((n, j) => text(n, `branches[${i}].nodes[${j}]`)) };
  });
  if (branches.length === 0) throw new ConfigError('branches must not be empty');
  const n = optionalInt(c.n, 'n');
  return {
    branches,
    joinStrategy: (c.joinStrategy ?? 'wait_all') as ParallelConfig['joinStrategy'],
    ...(n !== undefined ? { n } : {}),
  };
}

/** A loop's or a repeat's template: a tool or subworkflow node without an id. */
function parseTemplate(raw: unknown): LoopConfig['template'] {
  const t = object(raw, 'template');
  if (t.type !== 'tool' && t.type !== 'subworkflow') throw new ConfigError('template.type must be tool or subworkflow');
  return {
    type: t.type,
    config: object(t.config, 'template.config'),
    ...(t.retryPolicy !== undefined ? { retryPolicy: object(t.retryPolicy, 'template.retryPolicy') as LoopConfig['template']['retryPolicy'] } : {}),
  };
}

export function parseRepeatConfig(raw: unknown): RepeatConfig {
  const c = object(raw, 'config');
  const whileText = optionalText(c.while, 'while');
  const until = optionalText(c.until, 'until');
  if ((whileText === undefined) === (until === undefined)) throw new ConfigError('give one of while or until');
  return {
    template: parseTemplate(c.template),
    ...(whileText !== undefined ? { while: whileText } : {}),
    ...(until !== undefined ? { until } : {}),
    max_iterations: optionalInt(c.max_iterations, 'max_iterations') ?? 100,
  };
}

export function parseLoopConfig(raw: unknown): LoopConfig {
  const c = object(raw, 'config');
  return {
    items: text(c.items, 'items'),
    iterator: c.iterator === undefined ? 'item' : text(c.iterator, 'iterator'),
    template: parseTemplate(c.template),
    concurrency: optionalInt(c.concurrency, 'concurrency') ?? 10,
    maxItems: optionalInt(c.maxItems, 'maxItems') ?? 10_000,
    continue_on_error: c.continue_on_error === true,
  };
}

export function parseSubworkflowConfig(raw: unknown): SubworkflowConfig {
  const c = object(raw, 'config');
  if (c.inherit_context !== undefined && typeof c.inherit_context !== 'boolean') throw new ConfigError('inherit_context must be a boolean');
  return {
    workflow_id: text(c.workflow_id, 'workflow_id'),
    inputs: c.inputs === undefined ? {} : object(c.inputs, 'inputs'),
    inherit_context: c.inherit_context ?? false,
  };
}
