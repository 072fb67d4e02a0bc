import { randomUUID } from 'node:crypto';
import { writeEvent } from '../../domain/events/outbox';
import { verify } from '../../lib/triggers/standardWebhooks';
import { waitForRun } from '../helpers/runs';
import { mailsTo, waitForMail } from '../helpers/mail';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';
import { eventually, startDispatcher, startReceiver, type Receiver } from '../helpers/triggers';

/**
 * Events: outbox → dispatcher → one run per matching active workflow (also across an API restart and a
 * re-dispatch), the events emitted by members and runs, custom events, and outgoing webhooks (signatures, retries,
 * delivery log, redelivery, auto-disable with the admins' e-mail).
 */

let api: TestApi;
let tenant: TestTenant;
let receiver: Receiver;

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
  receiver = await startReceiver();
  await startDispatcher(api);
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };

async function workflowWith(t: TestTenant, triggers: unknown[], status: 'active' | 'paused' | 'draft' = 'active', parameters: unknown[] = []): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token: t.owner.token,
    body: { name: `events ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers, parameters },
  });
  expect(res.status).toBe(201);
  if (status !== 'draft') expect((await api.request('POST', `/api/v1/workflows/${res.body.id}/activate`, { token: t.owner.token })).status).toBe(200);
  if (status === 'paused') expect((await api.request('POST', `/api/v1/workflows/${res.body.id}/pause`, { token: t.owner.token })).status).toBe(200);
  return res.body.id as string;
}

const runsOf = (workflowId: string) => api.deps.db('workflow_runs').where({ workflow_id: workflowId }).select('id', 'trigger', 'parameters', 'status');
const dispatched = (eventId: string) =>
  eventually(async () => ((await api.deps.db('outbox_events').where({ id: eventId }).first('dispatched_at'))?.dispatched_at ? true : undefined), `dispatch of ${eventId}`);

describe('event triggers', () => {
  test('one run per matching active workflow, across an API restart and a re-dispatch', async () => {
    const t = await createTestTenant(api);
    const params = [{ name: 'contentId', type: 'string' }];
    const matching = await workflowWith(t, [{ id: 'on-upload', type: 'event', config: { source: 'content', event: 'uploaded', bucket: 'media' } }], 'active', params);
    const wildcard = await workflowWith(t, [{ type: 'event', config: { source: 'content', event: '*', parameters: { contentId: 'data.contentId' } } }], 'active', params);
    const otherBucket = await workflowWith(t, [{ type: 'event', config: { source: 'content', event: 'uploaded', bucket: 'archive' } }]);
    const otherEvent = await workflowWith(t, [{ type: 'event', config: { source: 'content', event: 'deleted' } }]);
    const paused = await workflowWith(t, [{ type: 'event', config: { source: 'content', event: 'uploaded' } }], 'paused');
    const elsewhere = await createTestTenant(api);
    const otherTenant = await workflowWith(elsewhere, [{ type: 'event', config: { source: 'content', event: 'uploaded' } }]);

    // The change and its event commit with one API instance, which then goes away before anything dispatches it...
    const first = await startApi();
    const contentId = randomUUID();
    const eventId = await first.deps.db.transaction((trx) =>
      writeEvent(trx, t.organizationId, 'content.uploaded', { contentId, organizationID: t.organizationId, version: 1, bucket: 'media', key: 'k', filename: 'a.txt', mimeType: 'text/plain', size: 1, sha256: 'x' }),
    );
    await first.close();
    // ...and a fresh instance (plus the dispatcher living in Temporal) carries on.
    const second = await startApi();
    await startDispatcher(second);
    await dispatched(eventId);

    for (const id of [matching, wildcard]) {
      const runs = await runsOf(id);
      expect(runs).toHaveLength(1);
      expect(runs[0].trigger).toMatchObject({ type: 'event', eventId, eventType: 'content.uploaded' });
      expect(runs[0].parameters).toEqual({ contentId });
      expect((await waitForRun(second, t.owner.token, id, runs[0].id)).status).toBe('completed');
    }
    for (const id of [otherBucket, otherEvent, paused, otherTenant]) expect(await runsOf(id)).toHaveLength(0);

    // A crash after the runs started but before the row was marked: the re-dispatch starts nothing new.
    await api.deps.db('outbox_events').where({ id: eventId }).update({ dispatched_at: null });
    await dispatched(eventId);
    expect(await runsOf(matching)).toHaveLength(1);
    expect(await runsOf(wildcard)).toHaveLength(1);
    await second.close();
  });

  test('custom events published by clients; names must be custom.*; viewers may not publish', async () => {
    const workflowId = await workflowWith(tenant, [{ type: 'event', config: { source: 'custom', event: 'order.paid' } }], 'active', [{ name: 'amount', type: 'number' }]);
    const bad = await api.request('POST', '/api/v1/events', { token: tenant.owner.token, body: { type: 'content.uploaded', data: {} } });
    expect(bad.status).toBe(400);
    const viewer = await addTestMember(api, tenant, 'viewer');
    expect((await api.request('POST', '/api/v1/events', { token: viewer.token, body: { type: 'custom.order.paid', data: {} } })).status).toBe(403);

    const published = await api.request('POST', '/api/v1/events', { token: tenant.owner.token, body: { type: 'custom.order.paid', data: { amount: 12.5 } } });
    expect(published.status).toBe(202);
    await dispatched(published.body.id);
    const [run] = await runsOf(workflowId);
    expect(run.parameters).toEqual({ amount: 12.5 });
    const done = await waitForRun(api, tenant.owner.token, workflowId, run.id);
    expect(done.trigger).toMatchObject({ type: 'event', eventType: 'custom.order.paid', chainDepth: 1 });

    const catalog = await api.request('GET', '/api/v1/events/catalog', { token: tenant.owner.token });
    expect(catalog.body.data.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['content.uploaded', 'content.processed', 'content.deleted', 'run.completed', 'run.failed', 'member.added', 'member.removed']),
    );
  });

  test('runs emit run.completed / run.failed; removing a member emits member.removed', async () => {
    const t = await createTestTenant(api);
    const listener = await workflowWith(t, [{ type: 'event', config: { source: 'run', event: 'completed' } }]);
    const source = await workflowWith(t, []);
    const started = await api.request('POST', `/api/v1/workflows/${source}/runs`, { token: t.owner.token, body: { parameters: {} } });
    await waitForRun(api, t.owner.token, source, started.body.id);
    const event = await eventually(
      async () => api.deps.db('outbox_events').where({ organization_id: t.organizationId, type: 'run.completed' }).whereRaw("payload->>'runId' = ?", [started.body.id]).first(),
      'run.completed',
    );
    expect(event.payload).toMatchObject({ workflow_id: source, status: 'completed', trigger: 'manual', chainDepth: 0 });
    await dispatched(event.id);
    // The listener ran once for the source's run; its own run.completed does not trigger itself.
    const listenerRuns = await eventually(async () => {
      const runs = await runsOf(listener);
      return runs.length ? runs : undefined;
    }, 'the listener run');
    expect(listenerRuns).toHaveLength(1);

    const member = await addTestMember(api, t, 'member');
    const removed = await api.request('DELETE', `/api/v1/organizations/${t.organizationId}/members/${member.userId}`, { token: t.owner.token });
    expect(removed.status).toBe(204);
    const memberEvent = await api.deps.db('outbox_events').where({ organization_id: t.organizationId, type: 'member.removed' }).first();
    expect(memberEvent.payload).toMatchObject({ userId: member.userId, role: 'member', reason: 'removed' });
  });
});

describe('outgoing webhooks', () => {
  const SECRET = 'endpoint-secret-0123456789';

  async function configureEndpoint(t: TestTenant, path: string, events: string[]): Promise<string> {
    const res = await api.request('PUT', `/api/v1/organizations/${t.organizationId}/settings`, {
      token: t.owner.token,
      body: { integration: { webhooks: [{ url: `${receiver.url}${path}`, events, secret: SECRET }] } },
    });
    expect(res.status).toBe(200);
    const list = await api.request('GET', '/api/v1/webhooks', { token: t.owner.token });
    expect(list.status).toBe(200);
    return list.body.data[0].id as string;
  }

  const publish = async (t: TestTenant, type: string, data: Record<string, unknown> = {}) => {
    const res = await api.request('POST', '/api/v1/events', { token: t.owner.token, body: { type, data } });
    expect(res.status).toBe(202);
    return res.body.id as string;
  };

  const deliveriesOf = async (t: TestTenant, endpointId: string) => {
    const res = await api.request('GET', `/api/v1/webhooks/${endpointId}/deliveries`, { token: t.owner.token });
    expect(res.status).toBe(200);
    return res.body.data as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  const settled = (t: TestTenant, endpointId: string, count: number) =>
    eventually(async () => {
      const list = await deliveriesOf(t, endpointId);
      return list.length >= count && list.every((d) => d.status !== 'pending') ? list : undefined;
    }, 'settled deliveries');

  test('subscribed events arrive signed per Standard Webhooks; the receiver verifies them; the log records the attempt', async () => {
    const t = await createTestTenant(api);
    const endpointId = await configureEndpoint(t, '/ok', ['custom.*']);
    receiver.respond = () => 204;
    const eventId = await publish(t, 'custom.hello', { n: 1 });
    const [delivery] = await settled(t, endpointId, 1);
    expect(delivery).toMatchObject({ eventId, eventType: 'custom.hello', status: 'succeeded', attempts: 1, responseCode: 204 });
    expect(delivery!.latencyMs).toBeGreaterThanOrEqual(0);

    const received = receiver.requests.filter((r) => r.url === '/ok');
    expect(received).toHaveLength(1);
    const req = received[0]!;
    const check = verify(
      SECRET,
      { id: req.headers['webhook-id'] as string, timestamp: req.headers['webhook-timestamp'] as string, signature: req.headers['webhook-signature'] as string },
      Buffer.from(req.body),
      5 * 60_000,
    );
    expect(check).toMatchObject({ ok: true, id: eventId });
    expect(JSON.parse(req.body)).toMatchObject({ id: eventId, type: 'custom.hello', organizationID: t.organizationId, data: { n: 1 } });
    expect(verify('another-secret-0123456789', { id: eventId, timestamp: req.headers['webhook-timestamp'] as string, signature: req.headers['webhook-signature'] as string }, Buffer.from(req.body), 300_000).ok).toBe(false);

    const detail = await api.request('GET', `/api/v1/webhooks/${endpointId}/deliveries/${delivery!.id}`, { token: t.owner.token });
    expect(detail.body.attemptLog).toHaveLength(1);
  });

  test('failures are retried with backoff; a later success counts', async () => {
    const t = await createTestTenant(api);
    const endpointId = await configureEndpoint(t, '/flaky', ['custom.flaky']);
    let calls = 0;
    receiver.respond = (req) => (req.url === '/flaky' && ++calls === 1 ? 500 : 200);
    await publish(t, 'custom.flaky');
    const [delivery] = await settled(t, endpointId, 1);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, responseCode: 200 });
    const detail = await api.request('GET', `/api/v1/webhooks/${endpointId}/deliveries/${delivery!.id}`, { token: t.owner.token });
    expect(detail.body.attemptLog.map((a: { responseCode: number }) => a.responseCode)).toEqual([500, 200]);
  });

  test('a run of failed deliveries disables the endpoint and mails the admins; redelivery after re-enabling', async () => {
    const t = await createTestTenant(api);
    const admin = await addTestMember(api, t, 'admin');
    const endpointId = await configureEndpoint(t, '/down', ['custom.*']);
    receiver.respond = (req) => (req.url === '/down' ? 503 : 204);
    await publish(t, 'custom.one');
    await settled(t, endpointId, 1);
    await publish(t, 'custom.two');
    const deliveries = await settled(t, endpointId, 2);
    expect(deliveries.map((d) => [d.status, d.attempts, d.responseCode])).toEqual([
      ['failed', 3, 503],
      ['failed', 3, 503],
    ]);
    const endpoints = await eventually(async () => {
      const res = await api.request('GET', '/api/v1/webhooks', { token: t.owner.token });
      return res.body.data[0].enabled === false ? res.body.data : undefined;
    }, 'the endpoint disabled');
    expect(endpoints[0].autoDisabledAt).not.toBeNull();
    for (const address of [t.owner.email, admin.email]) {
      const mail = await waitForMail(address, /Webhook endpoint disabled/);
      expect(mail.text).toContain('/down');
    }
    const audit = await api.deps.db('audit_logs').where({ organization_id: t.organizationId, action: 'webhook.auto_disabled' });
    expect(audit).toHaveLength(1);

    // Disabled: nothing is delivered and redelivery is refused.
    const before = receiver.requests.length;
    const whileDisabled = await publish(t, 'custom.three');
    await dispatched(whileDisabled);
    expect(await api.deps.db('webhook_deliveries').where({ event_id: whileDisabled })).toEqual([]);
    const refused = await api.request('POST', `/api/v1/webhooks/${endpointId}/deliveries/${deliveries[0]!.id}/redeliver`, { token: t.owner.token });
    expect(refused.status).toBe(409);

    // Fixed and enabled again: a redelivery goes through with the same webhook-id.
    receiver.respond = () => 200;
    const settings = await api.request('GET', `/api/v1/organizations/${t.organizationId}/settings`, { token: t.owner.token });
    const hook = settings.body.integration.webhooks[0];
    const enabled = await api.request('PUT', `/api/v1/organizations/${t.organizationId}/settings`, {
      token: t.owner.token,
      body: { integration: { webhooks: [{ id: hook.id, url: hook.url, events: hook.events, enabled: true }] } },
    });
    expect(enabled.status).toBe(200);
    const redelivered = await api.request('POST', `/api/v1/webhooks/${endpointId}/deliveries/${deliveries[0]!.id}/redeliver`, { token: t.owner.token });
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ redeliveryOf: deliveries[0]!.id, status: 'pending' });
    const after = await eventually(async () => {
      const list = await deliveriesOf(t, endpointId);
      const d = list.find((x) => x.id === redelivered.body.id);
      return d?.status === 'succeeded' ? d : undefined;
    }, 'the redelivery');
    expect(after.eventId).toBe(deliveries[0]!.eventId);
    expect(receiver.requests.slice(before).filter((r) => r.url === '/down').map((r) => r.headers['webhook-id'])).toEqual([deliveries[0]!.eventId]);
    expect((await mailsTo(admin.email)).filter((m) => /Webhook endpoint disabled/.test(m.subject))).toHaveLength(1);
  });

  test('SSRF guard: a private address outside the allowlist is refused at once (no retries)', async () => {
    const t = await createTestTenant(api);
    const res = await api.request('PUT', `/api/v1/organizations/${t.organizationId}/settings`, {
      token: t.owner.token,
      body: { integration: { webhooks: [{ url: 'http://192.168.0.1:9/hook', events: ['*'], secret: SECRET }] } },
    });
    expect(res.status).toBe(200);
    const endpointId = (await api.request('GET', '/api/v1/webhooks', { token: t.owner.token })).body.data[0].id as string;
    await publish(t, 'custom.probe');
    const [delivery] = await settled(t, endpointId, 1);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseCode: null });
    expect(delivery!.lastError).toMatch(/192\.168\.0\.1|private|public|refused/i);
  });

  test('tenancy: another organization cannot see the endpoint or its deliveries', async () => {
    const t = await createTestTenant(api);
    const endpointId = await configureEndpoint(t, '/ok', ['custom.*']);
    const other = await createTestTenant(api);
    expect((await api.request('GET', `/api/v1/webhooks/${endpointId}/deliveries`, { token: other.owner.token })).status).toBe(404);
    const member = await addTestMember(api, t, 'member');
    expect((await api.request('GET', `/api/v1/webhooks/${endpointId}/deliveries`, { token: member.token })).status).toBe(403);
  });
});
