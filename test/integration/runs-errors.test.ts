import type { TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';
import { addWorkflowVersion, createWorkflowFixture, FAST_RETRY, runToEnd, startRun, toolNode, waitForRun, useRunApi } from '../helpers/runs';

/** Error strategies at run time: retry mapping, fail_fast, dead letters (+ replay), circuit breaker, fallback, retry of runs. */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started));

const ok = (id: string, value: unknown = id) => toolNode(id, 'json_transform', { expression: '$', data: value });

describe('retry', () => {
  test('a node failing twice succeeds on its third attempt (fixed backoff)', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('flaky', 'fail', { mode: 'times', times: 2 })],
      errorHandling: { retry_config: FAST_RETRY },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('completed');
    expect(run.node_states.flaky).toMatchObject({ status: 'completed', attempts: 3, output: { attempt: 3 } });
  });

  test('linear backoff is emulated by the interpreter, one activity call per attempt', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('flaky', 'fail', { mode: 'times', times: 2 })],
      errorHandling: { retry_config: { max_attempts: 3, backoff: 'linear', initial_delay: 50 } },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.node_states.flaky).toMatchObject({ status: 'completed', attempts: 3, output: { attempt: 3 } });
    const history = await api.deps.temporal.workflow.getHandle(run.id).fetchHistory();
    const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fail');
    expect(scheduled).toHaveLength(3);
    expect(scheduled[0]!.activityTaskScheduledEventAttributes!.retryPolicy!.maximumAttempts).toBe(1);
  });

  test('exhausted attempts fail the node and the run; descendants are skipped, independent nodes complete', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('broken', 'fail', { mode: 'always', code: 'UPSTREAM_DOWN' }), ok('after'), ok('independent')],
      edges: [{ from: 'broken', to: 'after' }],
      errorHandling: { retry_config: FAST_RETRY },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.broken).toMatchObject({ status: 'failed', attempts: 3, error: { code: 'UPSTREAM_DOWN' } });
    expect(run.node_states.after.status).toBe('skipped');
    expect(run.node_states.independent.status).toBe('completed');
    expect(run.errors).toEqual([
      expect.objectContaining({ node: 'broken', code: 'UPSTREAM_DOWN', attempt: 3, time: expect.any(String) }),
    ]);
  });

  test('validation errors and NonRetryableToolError are not retried', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('fatal', 'fail', { mode: 'non_retryable', code: 'BAD_REQUEST' }), toolNode('invalid', 'delay', { ms: 'soon' })],
      errorHandling: { retry_config: FAST_RETRY },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.node_states.fatal).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'BAD_REQUEST' } });
    expect(run.node_states.invalid).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'INVALID_INPUT' } });
  });
});

describe('fail_fast', () => {
  test('the first failure fails the run and cancels running nodes', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('slow', 'delay', { ms: 60_000 }), toolNode('broken', 'fail', { mode: 'always' }), ok('later')],
      edges: [{ from: 'slow', to: 'later' }],
      errorHandling: { default_strategy: 'fail_fast', retry_config: FAST_RETRY },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.broken).toMatchObject({ status: 'failed', attempts: 1 });
    expect(run.node_states.slow.status).toBe('cancelled');
    expect(run.node_states.later.status).toBe('cancelled');
  });
});

describe('dead_letter_queue', () => {
  test('stores input, error and attempts, skips descendants, completes the run; replay re-runs only that node', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 'customer', type: 'string', required: true }],
      nodes: [
        ok('prepare', { customer: '${params.customer}' }),
        toolNode('deliver', 'fail', { mode: 'always', message: 'receiver down' }, { inputs: [{ name: 'value', from: 'prepare.result' }] }),
        ok('confirm'),
        ok('audit'),
      ],
      edges: [
        { from: 'prepare', to: 'deliver' },
        { from: 'deliver', to: 'confirm' },
        { from: 'prepare', to: 'audit' },
      ],
      errorHandling: {
        retry_config: FAST_RETRY,
        node_overrides: { deliver: { strategy: 'dead_letter_queue', dead_letter_queue: { queue: 'deliveries', retention: '2d' } } },
      },
    });
    const run = await runToEnd(api, token, workflowId, { customer: 'c-42' });
    expect(run.status).toBe('completed');
    expect(run.node_states.deliver).toMatchObject({ status: 'failed', via: 'dead_letter', attempts: 3 });
    expect(run.node_states.confirm.status).toBe('skipped');
    expect(run.node_states.audit.status).toBe('completed');
    expect(run.errors).toEqual([expect.objectContaining({ node: 'deliver', code: 'TOOL_FAILED', attempt: 3 })]);

    const list = await api.request('GET', `/api/v1/dead-letters?workflow_id=${workflowId}`, { token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const letter = list.body.data[0];
    expect(letter).toMatchObject({
      run_id: run.id,
      node_id: 'deliver',
      queue: 'deliveries',
      tool: 'fail',
      attempts: 3,
      status: 'pending',
      error: { code: 'TOOL_FAILED', message: 'receiver down' },
      input: { mode: 'always', message: 'receiver down', value: { customer: 'c-42' } },
    });
    const one = await api.request('GET', `/api/v1/dead-letters/${letter.id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(letter);
    expect((await api.request('GET', '/api/v1/dead-letters/not-an-id', { token })).status).toBe(404);
    const retentionMs = Date.parse(letter.expires_at) - Date.parse(letter.created_at);
    expect(Math.round(retentionMs / 3_600_000)).toBe(48);
    expect((await api.request('GET', '/api/v1/dead-letters?queue=other', { token })).body.data).toHaveLength(0);

    const replay = await api.request('POST', `/api/v1/dead-letters/${letter.id}/replay`, { token });
    expect(replay.status).toBe(201);
    expect(replay.body.dead_letter).toMatchObject({ status: 'replayed', replay_run_id: replay.body.run.id });
    expect(replay.body.run).toMatchObject({ retry_of: run.id, trigger: { type: 'dead_letter_replay', deadLetterId: letter.id } });
    const replayed = await waitForRun(api, token, workflowId, replay.body.run.id);
    expect(replayed.node_states.prepare).toMatchObject({ status: 'completed', via: 'reused', output: { result: { customer: 'c-42' } } });
    expect(replayed.node_states.audit.via).toBe('reused');
    expect(replayed.node_states.deliver).toMatchObject({ status: 'failed', via: 'dead_letter', attempts: 3 });
    expect((await api.request('POST', `/api/v1/dead-letters/${letter.id}/replay`, { token })).status).toBe(409);

    // another organization sees none of it
    const other = await createTestTenant(api);
    expect((await api.request('GET', '/api/v1/dead-letters', { token: other.owner.token })).body.data).toHaveLength(0);
    expect((await api.request('POST', `/api/v1/dead-letters/${letter.id}/replay`, { token: other.owner.token })).status).toBe(404);
    expect((await api.request('DELETE', `/api/v1/dead-letters/${letter.id}`, { token: other.owner.token })).status).toBe(404);
    expect((await api.request('GET', `/api/v1/dead-letters/${letter.id}`, { token: other.owner.token })).status).toBe(404);
    expect((await api.request('DELETE', `/api/v1/dead-letters/${letter.id}`, { token })).status).toBe(204);
    expect((await api.request('DELETE', `/api/v1/dead-letters/${letter.id}`, { token })).status).toBe(404);
  });
});

describe('fallback', () => {
  test('a tool handler runs with handler_config and the same inputs; its output replaces the failed node', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [
        ok('source', { price: 10 }),
        toolNode('primary', 'fail', { mode: 'non_retryable', code: 'PRICING_DOWN' }, { inputs: [{ name: 'value', from: 'source.result' }] }),
        toolNode('use', 'json_transform', { expression: '$.price' }, { inputs: [{ name: 'data', from: 'primary.value' }] }),
      ],
      edges: [
        { from: 'source', to: 'primary' },
        { from: 'primary', to: 'use' },
      ],
      errorHandling: {
        // the handler gets the failed node's `from` inputs (value) plus its own config
        node_overrides: { primary: { strategy: 'fallback', handler: 'fail', handler_config: { mode: 'never' } } },
      },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('completed');
    expect(run.node_states.primary).toMatchObject({
      status: 'completed',
      via: 'fallback',
      error: { code: 'PRICING_DOWN' },
      output: { attempt: 1, value: { price: 10 } },
    });
    expect(run.errors).toEqual([expect.objectContaining({ node: 'primary', code: 'PRICING_DOWN' })]);
    expect(run.results.use).toEqual({ result: 10 });
  });

  test('a node handler: the output of another node of the graph replaces the failed one', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [ok('cached', { price: 7 }), toolNode('live', 'fail', { mode: 'non_retryable' }), ok('after')],
      edges: [
        { from: 'cached', to: 'live' },
        { from: 'live', to: 'after' },
      ],
      errorHandling: { node_overrides: { live: { strategy: 'fallback', handler: 'cached' } } },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('completed');
    expect(run.node_states.live).toMatchObject({ status: 'completed', via: 'fallback', output: { result: { price: 7 } } });
    expect(run.node_states.after.status).toBe('completed');
  });

  test('a failing handler fails the node with both errors listed', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('live', 'fail', { mode: 'non_retryable', code: 'FIRST' })],
      errorHandling: {
        node_overrides: { live: { strategy: 'fallback', handler: 'fail', handler_config: { mode: 'non_retryable', code: 'SECOND' } } },
      },
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.live.error.code).toBe('FIRST');
    expect(run.errors.map((e: { code: string }) => e.code)).toEqual(['FIRST', 'SECOND']);
  });
});

describe('circuit_breaker', () => {
  test('consecutive failures across runs open the circuit; calls then fail fast; half-open trials decide', async () => {
    const breaker = { threshold: 2, timeout: 600_000, half_open_requests: 1 };
    const errorHandling = { default_strategy: 'circuit_breaker', circuit_breaker: breaker, retry_config: { max_attempts: 1 } };
    const failing = await createWorkflowFixture(api, tenant, { nodes: [toolNode('call', 'fail', { mode: 'always' })], errorHandling });
    const healthy = await createWorkflowFixture(api, tenant, { nodes: [toolNode('call', 'fail', { mode: 'never' })], errorHandling });
    const breakerState = async () =>
      (await api.request('GET', '/api/v1/circuit-breakers', { token })).body.data.find((b: { tool: string }) => b.tool === 'fail');
    // Instead of waiting for the open timeout, move the opening back in time.
    const elapseOpenTimeout = () =>
      api.deps.db('circuit_breakers')
        .where({ organization_id: tenant.organizationId, tool: 'fail' })
        .update({ opened_at: api.deps.db.raw("now() - interval '1 hour'") });

    expect((await runToEnd(api, token, failing)).node_states.call.error.code).toBe('TOOL_FAILED');
    expect(await breakerState()).toMatchObject({ state: 'closed', consecutive_failures: 1 });
    expect((await runToEnd(api, token, failing)).node_states.call.error.code).toBe('TOOL_FAILED');
    const open = await breakerState();
    expect(open).toMatchObject({ state: 'open', consecutive_failures: 2, last_error: { code: 'TOOL_FAILED' } });
    expect(Date.parse(open.half_opens_at) - Date.parse(open.opened_at)).toBe(600_000);

    // open: even a call that would succeed is refused without running
    const refused = await runToEnd(api, token, healthy);
    expect(refused.status).toBe('failed');
    expect(refused.node_states.call.error.code).toBe('CIRCUIT_OPEN');

    // after the timeout a failing trial call opens it again
    await elapseOpenTimeout();
    expect((await runToEnd(api, token, failing)).node_states.call.error.code).toBe('TOOL_FAILED');
    expect(await breakerState()).toMatchObject({ state: 'open', consecutive_failures: 3 });

    // and a succeeding trial call closes it
    await elapseOpenTimeout();
    const trial = await runToEnd(api, token, healthy);
    expect(trial.status).toBe('completed');
    expect(await breakerState()).toMatchObject({ state: 'closed', consecutive_failures: 0 });

    // state is per organization
    const other = await createTestTenant(api);
    expect((await api.request('GET', '/api/v1/circuit-breakers', { token: other.owner.token })).body.data).toEqual([]);
  });

  test('admins reset a breaker; members may not', async () => {
    const errorHandling = { default_strategy: 'circuit_breaker', circuit_breaker: { threshold: 1, timeout: 600_000 }, retry_config: { max_attempts: 1 } };
    const own = await createTestTenant(api);
    const failing = await createWorkflowFixture(api, own, { nodes: [toolNode('call', 'fail', { mode: 'always' })], errorHandling });
    await runToEnd(api, own.owner.token, failing);
    const member = await addTestMember(api, own, 'member');
    expect((await api.request('POST', '/api/v1/circuit-breakers/fail/reset', { token: member.token })).status).toBe(403);
    const reset = await api.request('POST', '/api/v1/circuit-breakers/fail/reset', { token: own.owner.token });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ tool: 'fail', state: 'closed', consecutive_failures: 0 });
    expect((await api.request('POST', '/api/v1/circuit-breakers/unknown_tool/reset', { token: own.owner.token })).status).toBe(404);
  });
});

describe('retry of runs', () => {
  test('a cancelled run is retried: completed nodes are reused, the rest executes', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [ok('first', { n: 1 }), toolNode('wait', 'delay', { ms: 4000, value: 'waited' }), ok('last')],
      edges: [
        { from: 'first', to: 'wait' },
        { from: 'wait', to: 'last' },
      ],
    });
    const started = await startRun(api, token, workflowId);
    await waitForRun(api, token, workflowId, started.id, (r) => r.node_states?.wait?.status === 'running');
    const cancelled = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token });
    expect(cancelled.body.status).toBe('cancelled');

    const retry = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/retry`, { token });
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ retry_of: started.id, workflow_version: 1, trigger: { type: 'retry', retryOf: started.id } });
    const run = await waitForRun(api, token, workflowId, retry.body.id);
    expect(run.status).toBe('completed');
    expect(run.node_states.first).toMatchObject({ status: 'completed', via: 'reused', output: { result: { n: 1 } } });
    expect(run.node_states.wait).toMatchObject({ status: 'completed', output: { value: 'waited' } });
    expect(run.node_states.wait.via).toBeUndefined();
    expect(run.node_states.last.status).toBe('completed');

    // only failed or cancelled runs can be retried
    const again = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/retry`, { token });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('RUN_NOT_RETRYABLE');
  });

  test('a failed run is retried with its parameters; the failed node runs again', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 'p', type: 'string', required: true }],
      nodes: [ok('first', '${params.p}'), toolNode('broken', 'fail', { mode: 'non_retryable' })],
      edges: [{ from: 'first', to: 'broken' }],
    });
    const failed = await runToEnd(api, token, workflowId, { p: 'kept' });
    expect(failed.status).toBe('failed');
    const retry = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${failed.id}/retry`, { token });
    const run = await waitForRun(api, token, workflowId, retry.body.id);
    expect(run.parameters).toEqual({ p: 'kept' });
    expect(run.node_states.first).toMatchObject({ via: 'reused', output: { result: 'kept' } });
    expect(run.node_states.broken).toMatchObject({ status: 'failed', attempts: 1 });
  });

  test('a retry runs the version of the run it retries, not the current one', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [ok('first', 'v1'), toolNode('broken', 'fail', { mode: 'non_retryable' })],
      edges: [{ from: 'first', to: 'broken' }],
    });
    const failed = await runToEnd(api, token, workflowId);
    expect(failed).toMatchObject({ status: 'failed', workflow_version: 1 });
    await addWorkflowVersion(api, tenant, workflowId, 2, { nodes: [ok('first', 'v2')] });

    const retry = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${failed.id}/retry`, { token });
    expect(retry.status).toBe(201);
    expect(retry.body.workflow_version).toBe(1);
    const run = await waitForRun(api, token, workflowId, retry.body.id);
    expect(run.node_states.first).toMatchObject({ via: 'reused', output: { result: 'v1' } });
    expect(run.node_states.broken).toMatchObject({ status: 'failed' });
    // A new run takes the current version.
    const fresh = await runToEnd(api, token, workflowId);
    expect(fresh).toMatchObject({ status: 'completed', workflow_version: 2, results: { first: { result: 'v2' } } });
  });
});

test('a dead-letter retention is a duration from 1m to 365d, checked at save', async () => {
  const save = (retention: unknown, where: 'default' | 'override') =>
    api.request('POST', '/api/v1/workflows', {
      token,
      body: {
        name: 'retention',
        dag: { nodes: [toolNode('a', 'json_transform', { expression: '1', data: null })], edges: [] },
        error_handling:
          where === 'default'
            ? { default_strategy: 'dead_letter_queue', dead_letter_queue: { retention } }
            : { node_overrides: { a: { strategy: 'dead_letter_queue', dead_letter_queue: { retention } } } },
      },
    });
  for (const bad of ['forever', '-5d', '', '0s', '30s', '400d']) {
    for (const where of ['default', 'override'] as const) {
      const res = await save(bad, where);
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body.error.details)).toContain('a duration from 1m to 365d');
    }
  }
  expect((await save('12h', 'default')).status).toBe(201);
  expect((await save('365d', 'override')).status).toBe(201);
});

