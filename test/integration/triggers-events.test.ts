import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { writeEvent } from '../../domain/events/outbox';
import { generateSigningSecret } from '../../lib/triggers/standardWebhooks';
import { waitForRun } from '../helpers/runs';
import { mailsTo, waitForMail } from '../helpers/mail';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';
import { eventually, startDispatcher, startReceiver, type Receiver } from '../helpers/triggers';

/**
 * Events: outbox → dispatcher → one run per matching active workflow (also across an API restart and a
 * re-dispatch), the events emitted by members and runs, custom events, and outgoing webhooks (signatures verified
 * with the official `standardwebhooks` library, generated and rotated secrets, destinations checked when saved,
 * retries, attempt health, delivery log, redelivery, auto-disable with the admins' e-mail, policy refusals apart).
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

    // A crash after the runs started but before the row was marked, its claim's lease over: the re-dispatch starts
    // nothing new.
    await api.deps.db('outbox_events').where({ id: eventId }).update({ dispatched_at: null, next_attempt_at: null });
    await dispatched(eventId);
    expect(await runsOf(matching)).toHaveLength(1);
    expect(await runsOf(wildcard)).toHaveLength(1);
    await second.close();
  });

  test("past its budget of event-started runs an organization's events wait, every run starts once, others go first", async () => {
    // The test worker's budget is 10 runs per 10 s window per organization (test/setup/globalSetup.ts). 24 runs
    // wanted at once span at most two windows, so at least 4 of them must wait for a third.
    const t = await createTestTenant(api);
    const subscribers = [];
    for (let i = 0; i < 4; i++) subscribers.push(await workflowWith(t, [{ type: 'event', config: { source: 'custom', event: 'burst' } }]));
    const other = await createTestTenant(api);
    const otherWorkflow = await workflowWith(other, [{ type: 'event', config: { source: 'custom', event: 'ping' } }]);
    const publish = async (who: TestTenant, type: string) => {
      const res = await api.request('POST', '/api/v1/events', { token: who.owner.token, body: { type, data: {} } });
      expect(res.status).toBe(202);
      return res.body.id as string;
    };
    const burst = [];
    for (let i = 0; i < 6; i++) burst.push(await publish(t, 'custom.burst'));
    const ping = await publish(other, 'custom.ping');
    for (const id of [...burst, ping]) {
      await eventually(async () => ((await api.deps.db('outbox_events').where({ id }).first('dispatched_at'))?.dispatched_at ? true : undefined), `dispatch of ${id}`, 90_000);
    }

    const runs = await api.deps.db('workflow_runs').whereIn('workflow_id', subscribers).select('workflow_id', 'trigger', 'created_at');
    expect(runs).toHaveLength(24);
    for (const workflowId of subscribers) {
      const events = runs.filter((r) => r.workflow_id === workflowId).map((r) => r.trigger.eventId);
      expect(events.sort()).toEqual([...burst].sort()); // one run per event and subscriber, none twice
    }
    // Deferred, not failed: events waited for a later window with no attempt counted.
    const rows = await api.deps.db('outbox_events').whereIn('id', burst).select('attempts', 'last_error', 'next_attempt_at');
    expect(rows.filter((r) => r.next_attempt_at !== null)).not.toHaveLength(0);
    expect(rows.map((r) => [r.attempts, r.last_error])).toEqual(rows.map(() => [0, null]));
    // The other organization's event, published after the burst, did not wait for it.
    const [pinged] = await runsOf(otherWorkflow);
    const pingedAt = (await api.deps.db('workflow_runs').where({ id: pinged.id }).first('created_at')).created_at as Date;
    expect(pingedAt.getTime()).toBeLessThan(Math.max(...runs.map((r) => (r.created_at as Date).getTime())));
  }, 150_000);

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
  const SECRET = generateSigningSecret();
  const settingsPath = (t: TestTenant) => `/api/v1/organizations/${t.organizationId}/settings`;
  const headersOf = (req: { headers: Record<string, string | string[] | undefined> }) => ({
    'webhook-id': req.headers['webhook-id'] as string,
    'webhook-timestamp': req.headers['webhook-timestamp'] as string,
    'webhook-signature': req.headers['webhook-signature'] as string,
  });
  /** The official library's verdict on a received request (it throws on a bad signature). */
  const verifiedBy = (secret: string, req: { body: string; headers: Record<string, string | string[] | undefined> }): boolean => {
    try {
      new Webhook(secret).verify(req.body, headersOf(req));
      return true;
    } catch {
      return false;
    }
  };
  const endpointView = async (t: TestTenant, endpointId: string) =>
    ((await api.request('GET', '/api/v1/webhooks', { token: t.owner.token })).body.data as Record<string, any>[]).find((e) => e.id === endpointId)!; // eslint-disable-line @typescript-eslint/no-explicit-any

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
    // The official library verifies it (signature and timestamp); another secret does not.
    expect(new Webhook(SECRET).verify(req.body, headersOf(req))).toMatchObject({ id: eventId, type: 'custom.hello', organizationID: t.organizationId, data: { n: 1 } });
    expect(req.headers['webhook-id']).toBe(eventId);
    expect(verifiedBy(generateSigningSecret(), req)).toBe(false);

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
    // The failed attempt shows in the endpoint's health, although the delivery succeeded.
    expect(await endpointView(t, endpointId)).toMatchObject({
      consecutiveFailures: 0,
      failedAttempts: 1,
      lastAttemptError: 'HTTP 500',
      lastAttemptFailedAt: expect.any(String),
      lastSuccessAt: expect.any(String),
      policyRefusals: 0,
    });
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

  test('secrets: generated and shown once when left out; a given one must follow the standard (422); the official library verifies deliveries', async () => {
    const t = await createTestTenant(api);
    const created = await api.request('PUT', settingsPath(t), {
      token: t.owner.token,
      body: { integration: { webhooks: [{ url: `${receiver.url}/generated`, events: ['custom.*'] }] } },
    });
    expect(created.status).toBe(200);
    const endpointId = created.body.integration.webhooks[0].id as string;
    expect(created.body.generatedSecrets).toEqual([{ endpointId, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) }]);
    const secret = created.body.generatedSecrets[0].secret as string;
    // Shown once: reads answer the mask only.
    const read = await api.request('GET', settingsPath(t), { token: t.owner.token });
    expect(read.body.generatedSecrets).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain(secret.slice(6, 30));
    expect(read.body.integration.webhooks[0].secret).toMatch(/^\*\*\*\*/);

    const b64 = (bytes: number) => Buffer.alloc(bytes, 9).toString('base64');
    for (const [bad, why] of [
      ['endpoint-secret-0123456789', /does not start with whsec_/],
      [`whsec_${b64(32).slice(0, -2)}!!`, /not base64/],
      [`whsec_${b64(16)}`, /decodes to 16 bytes/],
      [`whsec_${b64(65)}`, /decodes to 65 bytes/],
      ['whsec_ÉtéÉtéÉtéÉtéÉtéÉtéÉtéÉtéÉtéÉtéÉté', /not base64/],
    ] as const) {
      const res = await api.request('PUT', settingsPath(t), {
        token: t.owner.token,
        body: { integration: { webhooks: [{ url: `${receiver.url}/bad`, events: ['*'], secret: bad }] } },
      });
      expect([bad, res.status, res.body.error.code]).toEqual([bad, 422, 'UNPROCESSABLE']);
      expect(res.body.error.message).toMatch(why);
      expect(res.body.error.message).toMatch(/whsec_ followed by the base64 of 24 to 64 random bytes/);
      expect(res.body.error.details).toEqual([{ path: 'body.integration.webhooks.0.secret', problem: expect.any(String) }]);
    }

    receiver.respond = () => 204;
    const eventId = await publish(t, 'custom.generated', { n: 2 });
    await settled(t, endpointId, 1);
    const [req] = receiver.requests.filter((r) => r.url === '/generated');
    expect(new Webhook(secret).verify(req!.body, headersOf(req!))).toMatchObject({ id: eventId, data: { n: 2 } });
  });

  test('rotation: two signatures during the overlap (either secret verifies), one once the old secret is retired', async () => {
    const t = await createTestTenant(api);
    const created = await api.request('PUT', settingsPath(t), {
      token: t.owner.token,
      body: { integration: { webhooks: [{ url: `${receiver.url}/rotate`, events: ['custom.*'] }] } },
    });
    const endpointId = created.body.integration.webhooks[0].id as string;
    const first = created.body.generatedSecrets[0].secret as string;
    receiver.respond = () => 204;
    const delivered = async (n: number) => {
      await publish(t, 'custom.rotation');
      await settled(t, endpointId, n);
      return receiver.requests.filter((r) => r.url === '/rotate')[n - 1]!;
    };

    const rotated = await api.request('PUT', settingsPath(t), {
      token: t.owner.token,
      body: { integration: { webhooks: [{ id: endpointId, url: `${receiver.url}/rotate`, events: ['custom.*'], rotateSecret: true }] } },
    });
    expect(rotated.status).toBe(200);
    const second = rotated.body.generatedSecrets[0].secret as string;
    expect(second).not.toBe(first);
    expect((await endpointView(t, endpointId)).previousSecretExpiresAt).toEqual(expect.any(String));
    const during = await delivered(1);
    expect((during.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect([verifiedBy(first, during), verifiedBy(second, during), verifiedBy(generateSigningSecret(), during)]).toEqual([true, true, false]);

    // A secret of the integrator's own, with no overlap: the older ones stop at once.
    const third = generateSigningSecret(48);
    const replaced = await api.request('PUT', settingsPath(t), {
      token: t.owner.token,
      body: { integration: { webhooks: [{ id: endpointId, url: `${receiver.url}/rotate`, events: ['custom.*'], secret: third, previousSecretOverlapMinutes: 0 }] } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.generatedSecrets).toBeUndefined();
    expect((await endpointView(t, endpointId)).previousSecretExpiresAt).toBeNull();
    const after = await delivered(2);
    expect((after.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect([verifiedBy(third, after), verifiedBy(second, after), verifiedBy(first, after)]).toEqual([true, false, false]);
  });

  test('destinations are checked when saved with the policy deliveries use: 422 naming WEBHOOKS_ALLOWED_PRIVATE_HOSTS', async () => {
    const t = await createTestTenant(api);
    const db = new URL(api.config.database.url);
    for (const [url, why] of [
      ['http://192.168.0.1:9/hook', /not a public address.*WEBHOOKS_ALLOWED_PRIVATE_HOSTS/],
      ['http://169.254.169.254/latest/meta-data', /not a public address.*WEBHOOKS_ALLOWED_PRIVATE_HOSTS/],
      ['http://10.0.0.7/hook', /not a public address.*WEBHOOKS_ALLOWED_PRIVATE_HOSTS/],
      [`http://${db.hostname}:${db.port || 5432}/x`, /platform's own PostgreSQL/],
    ] as const) {
      const res = await api.request('PUT', settingsPath(t), { token: t.owner.token, body: { integration: { webhooks: [{ url, events: ['*'] }] } } });
      expect([url, res.status, res.body.error.code]).toEqual([url, 422, 'UNPROCESSABLE']);
      expect(res.body.error.message).toMatch(why);
      expect(res.body.error.message).not.toContain('TOOLS_HTTP_ALLOWED_HOSTS');
      expect(res.body.error.details).toEqual([{ path: 'body.integration.webhooks.0.url', problem: expect.any(String) }]);
    }
    // Nothing was saved; an allowed destination (the receiver, on the test allowlist) is.
    expect((await api.request('GET', '/api/v1/webhooks', { token: t.owner.token })).body.data).toEqual([]);
    const ok = await api.request('PUT', settingsPath(t), { token: t.owner.token, body: { integration: { webhooks: [{ url: `${receiver.url}/ok`, events: ['*'] }] } } });
    expect(ok.status).toBe(200);
  });

  test('a destination the policy refuses at delivery time fails at once, is counted apart and never disables the endpoint', async () => {
    const t = await createTestTenant(api);
    const admin = await addTestMember(api, t, 'admin');
    const endpointId = await configureEndpoint(t, '/ok', ['custom.*']);
    // As if the operator narrowed WEBHOOKS_ALLOWED_PRIVATE_HOSTS (or the name moved) after the endpoint was saved.
    await api.deps.db('organizations')
      .where({ id: t.organizationId })
      .update({ settings: api.deps.db.raw(`jsonb_set(settings, '{integration,webhooks,0,url}', '"http://192.168.0.1:9/hook"')`) });
    // Three refusals in a row: the tests disable an endpoint after two failed deliveries.
    for (let n = 1; n <= 3; n++) {
      await publish(t, 'custom.refused');
      await settled(t, endpointId, n);
    }
    const deliveries = await deliveriesOf(t, endpointId);
    for (const d of deliveries) {
      expect(d).toMatchObject({ status: 'failed', attempts: 1, responseCode: null });
      expect(d.lastError).toMatch(/not a public address.*WEBHOOKS_ALLOWED_PRIVATE_HOSTS/);
    }
    const detail = await api.request('GET', `/api/v1/webhooks/${endpointId}/deliveries/${deliveries[0]!.id}`, { token: t.owner.token });
    expect(detail.body.attemptLog).toEqual([expect.objectContaining({ refusedByPolicy: true })]);
    expect(await endpointView(t, endpointId)).toMatchObject({
      enabled: true,
      consecutiveFailures: 0,
      autoDisabledAt: null,
      failedAttempts: 0,
      policyRefusals: 3,
      lastPolicyRefusalAt: expect.any(String),
      lastPolicyRefusal: expect.stringMatching(/WEBHOOKS_ALLOWED_PRIVATE_HOSTS/),
    });
    expect(await api.deps.db('audit_logs').where({ organization_id: t.organizationId, action: 'webhook.auto_disabled' })).toEqual([]);
    expect((await mailsTo(admin.email)).filter((m) => /Webhook endpoint disabled/.test(m.subject))).toEqual([]);
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
