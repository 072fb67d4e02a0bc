import { uploadContent, waitForProcessing } from '../../helpers/content';
import { createWorkflowFixture, runToEnd, toolNode } from '../../helpers/runs';
import type { TestApi, TestResponse } from '../../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Hostile expressions against the real API and worker (issue 18): content extraction used to compile user
 * regexes with JavaScript's backtracking engine and run JSONata on the API's event loop with a deadline checked
 * only between steps. Now both run in the expression sandbox (RE2, a child process killed at its deadline): a
 * hostile pattern or expression gets a clear answer, the API keeps serving others meanwhile, and engine messages
 * such as "Maximum call stack size exceeded" never reach the caller. An expression that makes V8 abort (an array
 * past its maximum length) ends only its sandbox process, never the API or the worker: the sandbox used to run in
 * threads, and CI lost the whole test process to `$length($pad("", 300000000))` once. No timings are asserted:
 * the API's liveness is shown by the order in which answers arrive.
 */
let api: TestApi;
let tenant: TestTenant;
let textId: string;
let jsonId: string;

const INTERNALS = /Maximum call stack|RangeError|TypeError|\bat .*:\d+:\d+|node_modules/;

beforeAll(async () => {
  ({ api, tenant } = await startApiWithTenant());
  const upload = async (bytes: Buffer, filename: string): Promise<string> => {
    const res = await uploadContent(api, tenant.owner.token, { bytes, filename });
    expect(res.status).toBe(201);
    await waitForProcessing(api, tenant.owner.token, res.body.id);
    return res.body.id as string;
  };
  // 40,000 "a" then "!": `^(a+)+$` on it would backtrack for longer than the universe on a backtracking engine.
  textId = await upload(Buffer.from(`${'a'.repeat(40_000)}!\n`), 'aaa.txt');
  jsonId = await upload(Buffer.from(JSON.stringify({ items: [1, 2, 3] })), 'items.json');
});
afterAll(() => api.close());

const extract = (id: string, body: unknown): Promise<TestResponse> =>
  api.request('POST', `/api/v1/content/${id}/extract`, { token: tenant.owner.token, body });

/** Sends the hostile request, then a health check; answers the hostile one and the order the two arrived in. */
async function whileHostile(hostile: () => Promise<TestResponse>): Promise<{ res: TestResponse; order: string[] }> {
  const order: string[] = [];
  const pending = hostile().then((res) => {
    order.push('hostile');
    return res;
  });
  await new Promise((r) => setImmediate(r));
  const health = await api.request('GET', '/healthz');
  order.push(`health ${health.status}`);
  return { res: await pending, order };
}

function expectClearError(res: TestResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(res.body.error.message).not.toMatch(INTERNALS);
}

/**
 * `$length` of a 300-million-character string pushes each character onto an array in one JSONata step: the
 * deadline stops it (EXPRESSION_TIMEOUT) or, on a fast machine, the array passes V8's maximum length first and
 * its sandbox process ends (EXPRESSION_TOO_COMPLEX). Either is a clear answer; which comes first is the machine's.
 */
const RUNAWAY_STEP = '$length($pad("", 300000000))';
const STOPPED = /^EXPRESSION_(TIMEOUT|TOO_COMPLEX)$/;
/** One array of 200 million items, asked for at once: V8 aborts the process that evaluates it, every time. */
const ABORTING = '$count($split($pad("", 200000000), ""))';

describe('content extraction: regular expressions run on RE2', () => {
  test.each([['^(a+)+$'], ['^(a|aa)*$'], ['(a*)*b'], ['(.*a){20}!$']])('catastrophic %s answers (no match) instead of backtracking', async (pattern) => {
    const res = await extract(textId, { type: 'regex', pattern });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ matches: [], truncated: false });
  });

  test.each([['(a+)+\\1'], ['(?=(a+))\\1!'], ['(?<!b)a+$'], ['(']])('%s -> 400 INVALID_REGEX, with the field named', async (pattern) => {
    const res = await extract(textId, { type: 'regex', pattern });
    expectClearError(res, 400, 'INVALID_REGEX');
    expect(res.body.error.details).toEqual([{ path: 'body.pattern', problem: 'invalid' }]);
  });

  test('ordinary patterns still match', async () => {
    const res = await extract(textId, { type: 'regex', pattern: 'a{3}!', flags: 'i' });
    expect(res.status).toBe(200);
    expect(res.body.result.matches).toEqual([{ match: 'aaa!', index: 39_997, groups: [] }]);
  });
});

describe('content extraction: JSONata in the sandbox', () => {
  test('one runaway step is stopped (422) and the API answers others meanwhile', async () => {
    const { res, order } = await whileHostile(() => extract(jsonId, { type: 'jsonata', expression: RUNAWAY_STEP }));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toMatch(STOPPED);
    expect(res.body.error.message).not.toMatch(INTERNALS);
    expect(order).toEqual(['health 200', 'hostile']);
  });

  test('an expression that makes V8 abort ends only its sandbox process: 422 EXPRESSION_TOO_COMPLEX', async () => {
    const { res, order } = await whileHostile(() => extract(jsonId, { type: 'jsonata', expression: ABORTING }));
    // The 2 s deadline may come first under a full test run's load (sandboxAborts.test.ts has the abort for sure).
    expect(res.status).toBe(422);
    expect(res.body.error.code).toMatch(STOPPED);
    if (res.body.error.code === 'EXPRESSION_TOO_COMPLEX') {
      expect(res.body.error.message).toBe('the expression needed more memory than the sandbox allows and was stopped');
    } else expect(res.body.error.message).not.toMatch(INTERNALS);
    expect(order).toEqual(['health 200', 'hostile']);
    const next = await extract(jsonId, { type: 'jsonata', expression: '$sum(items)' });
    expect(next.body.result).toBe(6);
  });

  test('a never-ending tail recursion is stopped: 422 EXPRESSION_TIMEOUT', async () => {
    const res = await extract(jsonId, { type: 'jsonata', expression: '($f := function($x){ $f($x) }; $f(1))' });
    expectClearError(res, 422, 'EXPRESSION_TIMEOUT');
  });

  test('deep recursion: 422 EXPRESSION_TOO_COMPLEX, never "Maximum call stack size exceeded"', async () => {
    const res = await extract(jsonId, { type: 'jsonata', expression: '($f := function($x){ 1 + $f($x) }; $f(1))' });
    expectClearError(res, 422, 'EXPRESSION_TOO_COMPLEX');
    const nested = await extract(jsonId, { type: 'jsonata', expression: `${'('.repeat(1500)}1${')'.repeat(1500)}` });
    expectClearError(nested, 422, 'EXPRESSION_TOO_COMPLEX');
  });

  test('a huge range: 422 EXPRESSION_TOO_COMPLEX', async () => {
    expectClearError(await extract(jsonId, { type: 'jsonata', expression: '$count([1..10000000])' }), 422, 'EXPRESSION_TOO_COMPLEX');
  });

  test('a regex literal with a backreference: 400 INVALID_REGEX; ordinary expressions still work', async () => {
    expectClearError(await extract(jsonId, { type: 'jsonata', expression: '$match("aa", /(a)\\1/)' }), 400, 'INVALID_REGEX');
    const ok = await extract(jsonId, { type: 'jsonata', expression: '$sum(items)' });
    expect(ok.body.result).toBe(6);
  });
});

describe('json_transform in a run (real worker)', () => {
  test('a runaway transform fails its run: EXPRESSION_TIMEOUT or EXPRESSION_TOO_COMPLEX', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('endless', 'json_transform', { expression: RUNAWAY_STEP, data: null })],
    });
    const run = await runToEnd(api, tenant.owner.token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.endless.error.code).toMatch(STOPPED);
    expect(run.node_states.endless.error.message).not.toMatch(INTERNALS);
  });

  test('a transform and a template that make V8 abort fail their nodes; the worker runs the next run', async () => {
    const transform = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('aborts', 'json_transform', { expression: ABORTING, data: null })],
    });
    const transformRun = await runToEnd(api, tenant.owner.token, transform);
    expect(transformRun.status).toBe('failed');
    // Under a full test run's load the 2 s deadline may come before V8's abort (both are clear answers); the abort's
    // own answer with a deadline it always comes before is test/unit/expressions/sandboxAborts.test.ts's.
    const aborts = transformRun.node_states.aborts.error;
    expect(aborts.code).toMatch(STOPPED);
    expect(aborts.message).not.toMatch(INTERNALS);
    // The crash's own answer: JSONata's limits and caught RangeErrors give other messages under the same code.
    if (aborts.code === 'EXPRESSION_TOO_COMPLEX') expect(aborts.message).toContain('needed more memory than the sandbox allows');

    // CEL (the worker's other lane): a 600,000-character parameter doubled eight times (within CEL's save-time
    // checks), then split into one array of 153.6 million characters.
    let doubled = 'params.s';
    for (let i = 0; i < 8; i++) doubled = `(${doubled} + ${doubled})`;
    const template = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 's', type: 'string', required: true }],
      nodes: [toolNode('renders', 'json_transform', { expression: '$', data: `\${size(${doubled}.split(""))}` })],
    });
    const templateRun = await runToEnd(api, tenant.owner.token, template, { s: 'x'.repeat(600_000) });
    expect(templateRun.status).toBe('failed');
    // Building the 153.6-million-character string takes a run's default deadline on a loaded machine: the deadline
    // may stop it first (a correct answer too). The abort's own answer in the CEL lane, with a deadline it always
    // comes before, is test/unit/expressions/sandboxAborts.test.ts's.
    const renders = templateRun.node_states.renders.error;
    expect(renders.code).toMatch(STOPPED);
    expect(renders.message).not.toMatch(INTERNALS);
    if (renders.code === 'EXPRESSION_TOO_COMPLEX') expect(renders.message).toContain('needed more memory than the sandbox allows');

    const ordinary = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('sums', 'json_transform', { expression: '$sum(items)', data: { items: [1, 2, 3] } })],
    });
    const ordinaryRun = await runToEnd(api, tenant.owner.token, ordinary);
    expect(ordinaryRun.status).toBe('completed');
    expect(ordinaryRun.node_states.sums.output).toEqual({ result: 6 });
  });

  test('deep recursion fails with EXPRESSION_TOO_COMPLEX and a clear message', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('deep', 'json_transform', { expression: '($f := function($x){ 1 + $f($x) }; $f(1))', data: null })],
    });
    const run = await runToEnd(api, tenant.owner.token, workflowId);
    expect(run.node_states.deep.error.code).toBe('EXPRESSION_TOO_COMPLEX');
    expect(run.node_states.deep.error.message).not.toMatch(INTERNALS);
  });
});
