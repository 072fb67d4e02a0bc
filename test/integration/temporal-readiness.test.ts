import { randomUUID } from 'node:crypto';
import { msToTs } from '@temporalio/common/lib/time';
import { ensureSearchAttributes } from '../../worker/searchAttributes';
import { onCluster } from '../helpers/cluster';
import { createWorkflowFixture, toolNode } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant } from '../helpers/tenants';

/**
 * /readyz means "a run can start now" (docs/operating.md#readiness): besides the frontend, the namespace, Loom's
 * search attributes and the history service are checked. An API pointed at a namespace that is missing, then at one
 * without the search attributes, is not ready and says why; a run start there is answered as a configuration error
 * (500 ENGINE_MISCONFIGURED, naming what to fix), not as an outage (503), and the run records the same code.
 */

let ready: TestApi;
let misconfigured: TestApi;
const namespace = `loom-readiness-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  ready = await startApi();
  misconfigured = await startApi({ TEMPORAL_NAMESPACE: namespace });
});
afterAll(async () => {
  await misconfigured?.close();
  await ready?.close();
});

async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function startARun(): Promise<{ status: number; body: { id?: string; error?: { code: string; message: string } }; workflowId: string; organizationId: string }> {
  const tenant = await createTestTenant(misconfigured);
  const workflowId = await createWorkflowFixture(misconfigured, tenant, { nodes: [toolNode('a', 'json_transform', { expression: '$' })] });
  const res = await misconfigured.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: tenant.owner.token, body: {} });
  return { ...res, workflowId, organizationId: tenant.organizationId };
}

test('a set-up stack: every Temporal check passes', async () => {
  const res = await ready.request('GET', '/readyz');
  expect(res.status).toBe(200);
  expect(res.body.services.temporal).toMatchObject({
    ok: true,
    checks: { frontend: { ok: true }, namespace: { ok: true }, searchAttributes: { ok: true }, history: { ok: true } },
  });
});

test('namespace missing, then search attributes missing: not ready, said as configuration; starts refused as such', async () => {
  const missing = await misconfigured.request('GET', '/readyz');
  expect(missing.status).toBe(503);
  expect(missing.body.error.code).toBe('ENGINE_MISCONFIGURED');
  expect(missing.body.error.message).toContain(`namespace ${namespace} does not exist`);
  expect(missing.body.services.temporal.checks).toEqual({
    frontend: { ok: true },
    namespace: { ok: false, kind: 'configuration', error: `namespace ${namespace} does not exist` },
  });
  expect(missing.body.services.postgres.ok).toBe(true);

  const refused = await startARun();
  expect(refused.status).toBe(500);
  expect(refused.body.error!.code).toBe('ENGINE_MISCONFIGURED');
  expect(refused.body.error!.message).toMatch(/not set up for runs: namespace .* does not exist; the run was not started/);
  const recorded = await misconfigured.deps.db('workflow_runs').where({ workflow_id: refused.workflowId }).first();
  expect(recorded.status).toBe('failed');
  expect(recorded.errors).toEqual([expect.objectContaining({ code: 'ENGINE_MISCONFIGURED' })]);

  // The namespace exists now, without Loom's search attributes.
  await misconfigured.deps.temporal.connection.workflowService.registerNamespace({
    namespace,
    workflowExecutionRetentionPeriod: msToTs('1 day'),
  });
  const noAttributes = await eventually(
    'readyz after the namespace',
    () => misconfigured.request('GET', '/readyz'),
    (res) => res.body.services.temporal.checks?.namespace?.ok === true,
  );
  expect(noAttributes.status).toBe(503);
  expect(noAttributes.body.error.code).toBe('ENGINE_MISCONFIGURED');
  expect(noAttributes.body.services.temporal.checks.searchAttributes).toMatchObject({ ok: false, kind: 'configuration' });
  expect(noAttributes.body.services.temporal.checks.searchAttributes.error).toMatch(/^search attributes not registered: .*LoomTrigger/);
  expect(noAttributes.body.services.temporal.checks.history).toEqual({ ok: true });

  const unmapped = await startARun();
  expect(unmapped.status).toBe(500);
  expect(unmapped.body.error!.code).toBe('ENGINE_MISCONFIGURED');
  expect(unmapped.body.error!.message).toMatch(/search attribute Loom\w+ is not registered in the namespace/);

  // What the worker does at start (and an operator can do by hand): then the namespace is ready and runs start.
  await ensureSearchAttributes(misconfigured.deps.temporal, namespace);
  const fixed = await eventually('readyz after the attributes', () => misconfigured.request('GET', '/readyz'), (res) => res.status === 200);
  expect(fixed.body.services.temporal.ok).toBe(true);
  // On a real cluster (scripts/test --cluster) every frontend and history host keeps the namespace in a cache it
  // reloads every 2 s (system.namespaceCacheRefreshInterval), while /readyz lists the attributes from the database:
  // a start in that window can still be refused as misconfigured. The dev server reads through its cache
  // (system.forceSearchAttributesCacheRefreshOnRead), so there the first start must pass.
  const accepted = onCluster
    ? await eventually('a run start after the attributes', () => startARun(), (res) => res.status !== 500, 10_000)
    : await startARun();
  expect(accepted.status).toBe(201);
  await misconfigured.deps.temporal.workflow.getHandle(accepted.body.id!).terminate('test clean-up');
});
