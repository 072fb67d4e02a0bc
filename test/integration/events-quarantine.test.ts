import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';
import { eventually, startDispatcher, startReceiver, type Receiver } from '../helpers/triggers';

/**
 * Poison events (issue 22, docs/events.md#quarantine), on the real dispatcher of the run's worker
 * (test/setup/globalSetup.ts gives it EVENTS_DISPATCH_MAX_ATTEMPTS=3 and a 200 ms backoff). The poison: the
 * organization's webhook endpoint carries an id that is not a UUID (bad data written behind the settings
 * validation), so creating the event's delivery fails every time; fixing the id is the operator's fix.
 */

let api: TestApi;
let receiver: Receiver;

beforeAll(async () => {
  api = await startApi({ METRICS_REFRESH_INTERVAL: '1ms' });
  receiver = await startReceiver();
  await startDispatcher(api);
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

const quarantine = (t: TestTenant, query = '', token = t.owner.token) => api.request('GET', `/api/v1/events/quarantine${query}`, { token });
const outboxRow = (id: string) => api.deps.db('outbox_events').where({ id }).first();

/** A webhook endpoint subscribed to custom events, made through the settings API; its id. */
async function endpoint(t: TestTenant, path: string): Promise<string> {
  const res = await api.request('PUT', `/api/v1/organizations/${t.organizationId}/settings`, {
    token: t.owner.token,
    body: { integration: { webhooks: [{ url: `${receiver.url}${path}`, events: ['custom.*'] }] } },
  });
  expect(res.status).toBe(200);
  return res.body.integration.webhooks[0].id as string;
}

/** Writes `id` as the first webhook endpoint's id, behind the API's back. */
async function setEndpointId(t: TestTenant, id: string): Promise<void> {
  await api.deps.db.raw(`UPDATE organizations SET settings = jsonb_set(settings, '{integration,webhooks,0,id}', to_jsonb(?::text)) WHERE id = ?`, [
    id,
    t.organizationId,
  ]);
}

async function publish(t: TestTenant, type: string, data: Record<string, unknown> = {}): Promise<string> {
  const res = await api.request('POST', '/api/v1/events', { token: t.owner.token, body: { type, data } });
  expect(res.status).toBe(202);
  return res.body.id as string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const entryOf = async (t: TestTenant, id: string): Promise<any> => (await quarantine(t)).body.data.find((e: { id: string }) => e.id === id);

const untilQuarantined = (t: TestTenant, id: string) =>
  eventually(async () => {
    const entry = await entryOf(t, id);
    return entry?.status === 'quarantined' ? entry : undefined;
  }, `quarantine of ${id}`);

/** The value of an unlabelled gauge (the registry adds `service="api"` to every sample). */
function gauge(text: string, name: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
}

test('a poison event is quarantined after N attempts without holding up others, listed, and replayed once fixed', async () => {
  const t = await createTestTenant(api);
  const other = await createTestTenant(api);
  const endpointId = await endpoint(t, '/poison');
  // A workflow started by the same event: its run must not be started twice by the retries and the replay.
  const wf = await api.request('POST', '/api/v1/workflows', {
    token: t.owner.token,
    body: {
      name: `poison ${randomUUID().slice(0, 6)}`,
      dag: { nodes: [{ id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } }] },
      triggers: [{ type: 'event', config: { source: 'custom', event: 'poison' } }],
    },
  });
  expect(wf.status).toBe(201);
  expect((await api.request('POST', `/api/v1/workflows/${wf.body.id}/activate`, { token: t.owner.token })).status).toBe(200);

  await setEndpointId(t, 'not-a-uuid');
  const poison = await publish(t, 'custom.poison', { order: 42 });
  const fine = await publish(other, 'custom.fine');

  // The other organization's event goes through while the poison one is retried.
  await eventually(async () => ((await outboxRow(fine))?.dispatched_at ? true : undefined), 'dispatch of the healthy event');

  const entry = await untilQuarantined(t, poison);
  const maxAttempts = api.config.triggers.dispatchMaxAttempts;
  expect(maxAttempts).toBe(3);
  expect(entry).toMatchObject({
    id: poison,
    type: 'custom.poison',
    organizationID: t.organizationId,
    data: { order: 42 },
    status: 'quarantined',
    attempts: maxAttempts,
    replayedAt: null,
    dispatchedAt: null,
  });
  expect(entry.lastError).toMatch(/uuid/i);
  expect(entry.lastError).not.toMatch(/insert into/i);
  expect(Date.parse(entry.quarantinedAt)).toBeGreaterThan(Date.parse(entry.createdAt));

  // Quarantined means left alone: no more attempts.
  await new Promise((r) => setTimeout(r, 1500));
  expect(await outboxRow(poison)).toMatchObject({ attempts: maxAttempts, dispatched_at: null, quarantine_status: 'quarantined' });

  // The metric.
  const metrics = await api.request('GET', '/metrics');
  expect(gauge(metrics.text, 'loom_events_quarantined')).toBeGreaterThanOrEqual(1);

  // Filters.
  expect((await quarantine(t, '?status=quarantined&type=custom.poison')).body.data.map((e: { id: string }) => e.id)).toEqual([poison]);
  expect((await quarantine(t, '?status=replayed')).body.data).toEqual([]);

  // Other organizations neither see nor touch it; members may not list.
  expect((await quarantine(other)).body.data).toEqual([]);
  for (const [method, path] of [
    ['POST', `/api/v1/events/quarantine/${poison}/replay`],
    ['DELETE', `/api/v1/events/quarantine/${poison}`],
  ] as const) {
    const res = await api.request(method, path, { token: other.owner.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  }
  const member = await addTestMember(api, t, 'member');
  expect((await quarantine(t, '', member.token)).status).toBe(403);
  expect((await api.request('POST', `/api/v1/events/quarantine/not-an-id/replay`, { token: t.owner.token })).status).toBe(404);

  // The fix, then the replay: the delivery goes out and the event is dispatched.
  await setEndpointId(t, endpointId);
  const replay = await api.request('POST', `/api/v1/events/quarantine/${poison}/replay`, { token: t.owner.token });
  expect(replay.status).toBe(202);
  expect(replay.body).toMatchObject({ id: poison, status: 'replayed', attempts: 0 });
  const delivered = await eventually(
    async () => receiver.requests.find((r) => r.url === '/poison' && JSON.parse(r.body).id === poison),
    'the replayed delivery',
  );
  expect(JSON.parse(delivered.body)).toMatchObject({ type: 'custom.poison', data: { order: 42 } });
  const replayed = await eventually(async () => {
    const e = await entryOf(t, poison);
    return e?.dispatchedAt ? e : undefined;
  }, 'the replayed event dispatched');
  expect(replayed).toMatchObject({ status: 'replayed', attempts: 0 });
  expect(Date.parse(replayed.replayedAt)).toBeGreaterThanOrEqual(Date.parse(replayed.quarantinedAt));
  expect(await api.deps.db('workflow_runs').where({ workflow_id: wf.body.id })).toHaveLength(1);

  // Not quarantined any more: a second replay is refused; the replay is audited.
  const again = await api.request('POST', `/api/v1/events/quarantine/${poison}/replay`, { token: t.owner.token });
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('INVALID_STATE');
  const audit = await api.request('GET', `/api/v1/organizations/${t.organizationId}/audit-logs?action=event.replayed`, { token: t.owner.token });
  expect(audit.body.data[0]).toMatchObject({ actor: { type: 'user', id: t.owner.userId }, target: { type: 'event', id: poison } });
});

test('a quarantined event can be discarded', async () => {
  const t = await createTestTenant(api);
  await endpoint(t, '/discard');
  await setEndpointId(t, 'still-not-a-uuid');
  const poison = await publish(t, 'custom.discard');
  await untilQuarantined(t, poison);

  const res = await api.request('DELETE', `/api/v1/events/quarantine/${poison}`, { token: t.owner.token });
  expect(res.status).toBe(204);
  expect(await outboxRow(poison)).toBeUndefined();
  expect((await quarantine(t)).body.data).toEqual([]);
  expect((await api.request('DELETE', `/api/v1/events/quarantine/${poison}`, { token: t.owner.token })).status).toBe(404);
  expect(receiver.requests.some((r) => r.url === '/discard')).toBe(false);
});
