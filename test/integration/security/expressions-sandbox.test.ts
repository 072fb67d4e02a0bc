import { uploadContent, waitForProcessing } from '../../helpers/content';
import { createWorkflowFixture, runToEnd, toolNode } from '../../helpers/runs';
import type { TestApi, TestResponse } from '../../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Hostile expressions against the real API and worker (issue 18): content extraction used to compile user
 * regexes with JavaScript's backtracking engine and run JSONata on the API's event loop with a deadline checked
 * only between steps. Now both run in the expression sandbox (RE2, a thread stopped at its deadline): a hostile
 * pattern or expression gets a clear answer, the API keeps serving others meanwhile, and engine messages such as
 * "Maximum call stack size exceeded" never reach the caller. A json_transform that never ends fails its run with
 * EXPRESSION_TIMEOUT. No timings are asserted: the API's liveness is shown by the order in which answers arrive.
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
  test('one endless step is stopped (422 EXPRESSION_TIMEOUT) and the API answers others meanwhile', async () => {
    // $pad builds its string in one JSONata step, which no between-steps deadline check can interrupt.
    const { res, order } = await whileHostile(() => extract(jsonId, { type: 'jsonata', expression: '$length($pad("", 300000000))' }));
    expectClearError(res, 422, 'EXPRESSION_TIMEOUT');
    expect(order).toEqual(['health 200', 'hostile']);
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
  test('a never-ending transform fails its run with EXPRESSION_TIMEOUT', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [toolNode('endless', 'json_transform', { expression: '$length($pad("", 300000000))', data: null })],
    });
    const run = await runToEnd(api, tenant.owner.token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.endless.error.code).toBe('EXPRESSION_TIMEOUT');
    expect(run.node_states.endless.error.message).not.toMatch(INTERNALS);
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
