import {
  approvalConfigSchema,
  conditionConfigSchema,
  respondConfigSchema,
  loopConfigSchema,
  parallelConfigSchema,
  repeatConfigSchema,
  subworkflowConfigSchema,
  switchConfigSchema,
  toolConfigSchema,
  waitConfigSchema,
  waitForEventConfigSchema,
} from '../../lib/dag/model';
import {
  ConfigError,
  parseApprovalConfig,
  parseConditionConfig,
  parseRespondConfig,
  parseLoopConfig,
  parseParallelConfig,
  parseRepeatConfig,
  parseSubworkflowConfig,
  parseSwitchConfig,
  parseToolConfig,
  parseWaitConfig,
  parseWaitForEventConfig,
} from '../../workflows/runs/configs';

/** The interpreter's zod-free config parsing gives what the model's schemas give for every valid config. */

const cases: { name: string; parse: (raw: unknown) => unknown; schema: { parse: (raw: unknown) => unknown }; configs: unknown[] }[] = [
  {
    name: 'tool',
    parse: parseToolConfig,
    schema: toolConfigSchema,
    configs: [
      { tool: 'json_transform' },
      { tool: 'json_transform', config: { expression: '1', data: { a: [1] } } },
      {
        tool: 'http_request',
        config: {},
        inputs: [{ from: 'a.result' }, { name: 'body', from: 'params.x' }],
        outputs: [{ name: 'status' }, { name: 'body', type: 'object', description: 'd' }],
      },
      { tool: 'http_request', config: { url: 'https://a.example' }, rate_limit: { requests: 10, per: '1s' } },
      { tool: 'http_request', rate_limit: { requests: 1, per: '1h', key: 'partner' } },
    ],
  },
  {
    name: 'condition',
    parse: parseConditionConfig,
    schema: conditionConfigSchema,
    configs: [{ expression: 'params.x' }, { expression: 'true', trueBranch: 'a', falseBranch: 'b-2' }, { expression: 'x', falseBranch: 'b' }],
  },
  {
    name: 'switch',
    parse: parseSwitchConfig,
    schema: switchConfigSchema,
    configs: [
      { cases: [{ when: 'params.x > 1', next: 'a' }] },
      { value: 'params.region', cases: [{ equals: 'eu', next: 'a' }, { equals: null, next: 'b' }, { equals: { k: [1] }, next: 'a' }], default: 'c' },
      { cases: [{ when: 'true', next: 'a' }, { when: 'false', next: 'b' }], default: 'b' },
    ],
  },
  {
    name: 'repeat',
    parse: parseRepeatConfig,
    schema: repeatConfigSchema,
    configs: [
      { template: { type: 'tool', config: { tool: 'json_transform' } }, until: 'last.result > 3' },
      { template: { type: 'subworkflow', config: { workflow_id: 'w' }, retryPolicy: { max_attempts: 2 } }, while: 'true', max_iterations: 7 },
    ],
  },
  {
    name: 'wait',
    parse: parseWaitConfig,
    schema: waitConfigSchema,
    configs: [{ duration: '15m' }, { until: '2030-01-01T00:00:00Z' }, { until: '${nodes.a.result.due}' }],
  },
  {
    name: 'wait_for_event',
    parse: parseWaitForEventConfig,
    schema: waitForEventConfigSchema,
    configs: [{ event: 'custom.paid' }, { event: 'custom.paid', match: 'event.data.id == params.id', timeout: '2h', on_timeout: 'continue', lookback: '5m' }],
  },
  {
    name: 'approval',
    parse: parseApprovalConfig,
    schema: approvalConfigSchema,
    configs: [
      { approvers: { role: 'admin' } },
      { approvers: { users: ['00000000-0000-4000-8000-000000000000'] }, required: 1, timeout: '1h', on_timeout: 'reject', rejected_branch: 'r' },
      {
        approvers: { role: 'member', users: ['00000000-0000-4000-8000-000000000000'] },
        required: 2,
        allow_self_approval: true,
        message: 'Pay ${params.amount}?',
        form: [
          { name: 'amount', type: 'number', required: true },
          { name: 'center', label: 'Cost center', type: 'choice', options: ['a', 'b'] },
          { name: 'ok', type: 'boolean', required: false },
        ],
        on_timeout: 'branch',
        approved_branch: 'a',
        timed_out_branch: 't',
      },
    ],
  },
  {
    name: 'respond',
    parse: parseRespondConfig,
    schema: respondConfigSchema,
    configs: [{}, { status: 201, content_type: 'text/plain', headers: { 'x-order': '${params.id}' }, body: 'ok' }, { body: null }, { body: { a: ['${nodes.x.y}'] } }],
  },
  {
    name: 'parallel',
    parse: parseParallelConfig,
    schema: parallelConfigSchema,
    configs: [
      { branches: [{ id: 'one', nodes: ['a'] }] },
      { branches: [{ id: 'one', nodes: ['a', 'b'] }, { id: 'two', nodes: ['c'] }], joinStrategy: 'wait_n', n: 1 },
      { branches: [{ id: 'one', nodes: ['a'] }], joinStrategy: 'wait_any' },
    ],
  },
  {
    name: 'loop',
    parse: parseLoopConfig,
    schema: loopConfigSchema,
    configs: [
      { items: 'a.result', template: { type: 'tool', config: { tool: 'json_transform', config: { expression: 'v' } } } },
      {
        items: '${[1, 2]}',
        iterator: 'order',
        concurrency: 3,
        maxItems: 50,
        template: { type: 'subworkflow', config: { workflow_id: '00000000-0000-4000-8000-000000000000' }, retryPolicy: { max_attempts: 2 } },
      },
    ],
  },
  {
    name: 'subworkflow',
    parse: parseSubworkflowConfig,
    schema: subworkflowConfigSchema,
    configs: [
      { workflow_id: '00000000-0000-4000-8000-000000000000' },
      { workflow_id: '00000000-0000-4000-8000-000000000000', inputs: { a: '${params.a}' }, inherit_context: true },
    ],
  },
];

describe.each(cases)('$name configs', ({ parse, schema, configs }) => {
  test.each(configs.map((config) => [JSON.stringify(config), config]))('%s', (_, config) => {
    expect(parse(config)).toStrictEqual(schema.parse(config));
  });
});

test('configs missing what the interpreter needs are refused', () => {
  expect(() => parseToolConfig({ config: {} })).toThrow(ConfigError);
  expect(() => parseConditionConfig({})).toThrow(/expression/);
  expect(() => parseParallelConfig({ branches: [] })).toThrow(/branches/);
  expect(() => parseLoopConfig({ items: 'a.b', template: { type: 'condition', config: {} } })).toThrow(/template.type/);
  expect(() => parseSubworkflowConfig({ workflow_id: 'x', inherit_context: 'yes' })).toThrow(/inherit_context/);
  expect(() => parseApprovalConfig({ approvers: {} })).toThrow(/role or users/);
  expect(() => parseRespondConfig({ status: 100 })).toThrow(/status/);
  expect(() => parseRespondConfig({ content_type: 'text/html' })).toThrow(/content_type/);
  expect(() => parseApprovalConfig({ approvers: { role: 'boss' } })).toThrow(/approvers.role/);
  expect(() => parseApprovalConfig({ approvers: { role: 'admin' }, on_timeout: 'later' })).toThrow(/on_timeout/);
});
