import { randomUUID } from 'node:crypto';
import { RUN_TEST_CONFIG, toolNode, waitForRun } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';

/**
 * The respond node (docs/triggers.md#respond-to-the-sender): a webhook-started run answers its sender with the
 * status, headers and body it chooses as soon as that node runs, while the run goes on; through the real API,
 * worker and Temporal.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;
let slug: string;

beforeAll(async () => {
  ({ api, tenant, token } = await startApiWithTenant({ ...RUN_TEST_CONFIG, RUN_WAIT_MAX: '20s' }));
  slug = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug;
});
afterAll(() => api.close());

/** A workflow behind a bearer webhook at `path`; its secret. */
async function hooked(path: string, nodes: unknown[], edges: { from: string; to: string }[]): Promise<{ workflowId: string; secret: string }> {
  const created = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: `respond ${path}`,
      parameters: [
        { name: 'order', type: 'string', required: true },
        { name: 'fast', type: 'boolean', default: true },
      ],
      dag: { nodes, edges },
      triggers: [{ id: 'in', type: 'webhook', config: { path, method: 'POST', authentication: 'bearer', parameters: { order: 'body.order', fast: 'body.fast' } } }],
    },
  });
  if (created.status !== 201) throw new Error(`save answered ${created.status}: ${created.text}`);
  const workflowId = created.body.id as string;
  expect((await api.request('POST', `/api/v1/workflows/${workflowId}/activate`, { token })).status).toBe(200);
  const secret = (await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/in/secret`, { token })).body.secret as string;
  return { workflowId, secret };
}

const post = (path: string, secret: string, body: unknown, headers: Record<string, string> = {}) =>
  api.request('POST', `/api/hooks/${slug}/${path}`, { body, headers: { authorization: `Bearer ${secret}`, ...headers } });

const ack = (config: Record<string, unknown>) => ({ id: 'ack', type: 'respond', config });

test('the sender gets the chosen status, headers and JSON body at once; the run goes on after it', async () => {
  const { workflowId, secret } = await hooked(
    'orders',
    [
      toolNode('check', 'json_transform', { expression: '$', data: { order: '${params.order}' } }),
      ack({ status: 201, headers: { 'X-Order-Id': '${params.order}', 'Cache-Control': 'no-store' }, body: { accepted: true, order: '${nodes.check.result.order}' } }),
      toolNode('slow', 'delay', { ms: 4000 }),
    ],
    [
      { from: 'check', to: 'ack' },
      { from: 'ack', to: 'slow' },
    ],
  );
  const res = await post('orders', secret, { order: 'A-17' });
  expect(res.status).toBe(201);
  expect(res.body).toEqual({ accepted: true, order: 'A-17' });
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('x-order-id')).toBe('A-17');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toContain('sandbox');
  const runId = res.headers.get('x-loom-run-id')!;
  // Answered before the run ended: the delay after the respond node is still running.
  const now = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${runId}`, { token });
  expect(now.body.status).toBe('running');
  const done = await waitForRun(api, token, workflowId, runId);
  expect(done.status).toBe('completed');
  expect(done.node_states.ack.output).toEqual({ status: 201, sent: true });

  // A repeated delivery gets the same answer, replayed.
  const key = { 'idempotency-key': `k-${randomUUID()}` };
  const first = await post('orders', secret, { order: 'B-2' }, key);
  const again = await post('orders', secret, { order: 'B-2' }, key);
  expect(first.status).toBe(201);
  expect(again.status).toBe(201);
  expect(again.body).toEqual({ accepted: true, order: 'B-2' });
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.headers.get('x-loom-run-id')).toBe(first.headers.get('x-loom-run-id'));
});

test('text answers; the first respond node answers and a later one reports sent: false', async () => {
  const { workflowId, secret } = await hooked(
    'text',
    [ack({ status: 202, content_type: 'text/plain', body: 'queued ${params.order}' }), { id: 'again', type: 'respond', config: { status: 500, body: 'late' } }],
    [{ from: 'ack', to: 'again' }],
  );
  const res = await post('text', secret, { order: 'C-3' });
  expect(res.status).toBe(202);
  expect(res.text).toBe('queued C-3');
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  const done = await waitForRun(api, token, workflowId, res.headers.get('x-loom-run-id')!);
  expect(done.node_states.again.output).toEqual({ status: 500, sent: false });
});

test('a run that ends without answering (its respond node skipped) gets the finished run; a bad header value fails the node', async () => {
  const skipped = await hooked(
    'maybe',
    [
      { id: 'gate', type: 'condition', config: { expression: 'params.fast', trueBranch: 'done', falseBranch: 'ack' } },
      toolNode('done', 'json_transform', { expression: '$', data: 'direct' }),
      ack({ body: 'never' }),
    ],
    [],
  );
  const res = await post('maybe', skipped.secret, { order: 'D-4', fast: true });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'completed', results: { done: { result: 'direct' } } });

  const injected = await hooked('inject', [ack({ headers: { 'x-order': '${params.order}' }, body: 'ok' })], []);
  const bad = await post('inject', injected.secret, { order: 'E-5\r\nSet-Cookie: session=stolen' });
  expect(bad.status).toBe(200);
  expect(bad.headers.get('set-cookie')).toBeNull();
  expect(bad.body).toMatchObject({ status: 'failed', errors: [expect.objectContaining({ node: 'ack', code: 'RESPOND_INVALID' })] });
});

test('save-time: headers that would set cookies, redirect or change the content type are refused', async () => {
  const res = await api.request('POST', '/api/v1/workflows/validate', {
    token,
    body: {
      name: 'bad respond',
      dag: {
        nodes: [ack({ headers: { 'Set-Cookie': 'a=1', Location: 'https://evil.example', 'Content-Type': 'text/html' }, body: '{{secret.KEY}}' })],
        edges: [],
      },
    },
  });
  expect(res.status).toBe(422);
  expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(
    expect.arrayContaining(['dag.nodes.ack.config.headers.Set-Cookie', 'dag.nodes.ack.config.headers.Location', 'dag.nodes.ack.config.headers.Content-Type', 'dag.nodes.ack.config.body']),
  );
  const html = await api.request('POST', '/api/v1/workflows/validate', { token, body: { name: 'html', dag: { nodes: [ack({ content_type: 'text/html' })], edges: [] } } });
  expect(html.status).toBe(422);
});
