import type { RouteDef } from '../../../api/http/route';
import {
  createVictimResources,
  fillPath,
  isEnvelope,
  snapshotOrganization,
  victimPathValues,
  type VictimResources,
} from '../../helpers/security';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Tenant isolation, generated from the route declarations (the OpenAPI document): every authenticated route with
 * an id in its path is called by the owner of organization A with the ids of organization B's real resources. The
 * answer is 404 in the envelope (never 200 or 403, which would confirm the id exists) and B's rows are unchanged.
 */

/** Bodies that pass validation, so the request reaches the lookup (an empty body would stop at 400 first). */
const VALID_BODIES: Record<string, unknown> = {
  rejectRun: { comment: 'no' },
  decideApproval: { decision: 'approve' },
  updateContent: { title: 'stolen' },
  extractContent: { type: 'text' },
  putContentEmbedding: { vector: [0.1, 0.2, 0.3] },
  changeMemberRole: { role: 'admin' },
  putSecret: { value: 'attacker-value' },
};

/**
 * Secret names are not ids: `/api/v1/secrets/{name}` always addresses the caller's own organization, so A writing
 * or deleting B's secret name acts on A's own store (the attacker holds the same name too). What must hold is the
 * snapshot: B's rows, its secret included, are unchanged.
 *
 * Tool ids are not ids either: `/api/v1/tools/{tool}/test` names a tool of the platform's catalogue, the same for every
 * organization, and runs it for the caller's own organization (its secrets, its audit).
 */
const CALLER_SCOPED = /^\/api\/v1\/(secrets|tools)\//;

let api: TestApi;
let attacker: TestTenant;
let victim: TestTenant;
let resources: VictimResources;
let attackerResources: VictimResources;

beforeAll(async () => {
  // Usage counters flush every 50 ms, so the victim's own fixture calls are written before the first snapshot.
  api = await startApi({ SERVICE_USAGE_FLUSH_INTERVAL: '50ms' });
  attacker = await createTestTenant(api);
  victim = await createTestTenant(api);
  [resources, attackerResources] = await Promise.all([createVictimResources(api, victim), createVictimResources(api, attacker)]);
  await new Promise((r) => setTimeout(r, 300));
});

afterAll(async () => {
  await api?.close();
});

function routesWithIds(routes: RouteDef[]): RouteDef[] {
  return routes.filter((r) => r.auth !== 'public' && /\{[^}]+\}/.test(r.path) && (r.path.startsWith('/api/v1/') || r.path.startsWith('/api/auth/')));
}

test('every route with an id answers 404 to another tenant, and changes nothing there', async () => {
  const cases = routesWithIds(api.app.routes);
  expect(cases.length).toBeGreaterThan(40);
  // Content processing and runs are finished; these tables only hold counters the victim's own traffic moves.
  const skip = ['usage_counters', 'usage_events', 'rate_limits'];
  const before = await snapshotOrganization(api.deps.db, victim.organizationId, skip);
  const failures: string[] = [];
  // Destructive routes last, so a leak in one cannot hide a leak in another.
  const ordered = [...cases.filter((r) => r.method !== 'delete'), ...cases.filter((r) => r.method === 'delete')];
  for (const route of ordered) {
    const path = fillPath(route.path, victimPathValues(victim, resources, route));
    const res = await api.request(route.method.toUpperCase(), path, {
      token: attacker.owner.token,
      body: route.body && !(route.bodyFormats ?? []).includes('raw') ? (VALID_BODIES[route.operationId] ?? {}) : undefined,
    });
    if (CALLER_SCOPED.test(route.path)) {
      if (res.status >= 500) failures.push(`${route.method} ${route.path} (${route.operationId}) -> ${res.status}`);
      continue;
    }
    if (res.status !== 404 || !isEnvelope(res.body)) failures.push(`${route.method} ${route.path} (${route.operationId}) -> ${res.status} ${res.text.slice(0, 160)}`);
  }
  const after = await snapshotOrganization(api.deps.db, victim.organizationId, skip);
  expect(failures).toEqual([]);
  expect(after).toEqual(before);
  console.info(`tenant isolation: ${ordered.length} cross-tenant requests refused with 404`);
});

test("mixed ids: the attacker's own parent with the victim's child ids answers 404, and changes nothing there", async () => {
  // e.g. PUT /organizations/{A}/members/{B's member}, GET /workflows/{A's workflow}/runs/{B's run}.
  const cases = routesWithIds(api.app.routes).filter((r) => (r.path.match(/\{/g) ?? []).length >= 2 && r.path.startsWith('/api/v1/'));
  expect(cases.length).toBeGreaterThan(8);
  const skip = ['usage_counters', 'usage_events', 'rate_limits', 'organization_usage'];
  const before = await snapshotOrganization(api.deps.db, victim.organizationId, skip);
  const failures: string[] = [];
  for (const route of [...cases.filter((r) => r.method !== 'delete'), ...cases.filter((r) => r.method === 'delete')]) {
    const own = victimPathValues(attacker, attackerResources, route);
    const theirs = victimPathValues(victim, resources, route);
    const values = { ...theirs, id: own.id };
    const path = fillPath(route.path, values);
    const res = await api.request(route.method.toUpperCase(), path, {
      token: attacker.owner.token,
      body: route.body && !(route.bodyFormats ?? []).includes('raw') ? (VALID_BODIES[route.operationId] ?? {}) : undefined,
    });
    // Versions are numbers, not ids: /workflows/{own}/versions/1 is the attacker's own version.
    if (route.operationId === 'getWorkflowVersion') continue;
    if (res.status !== 404 || !isEnvelope(res.body)) failures.push(`${route.method} ${route.path} (${route.operationId}) -> ${res.status} ${res.text.slice(0, 160)}`);
  }
  expect(failures).toEqual([]);
  expect(await snapshotOrganization(api.deps.db, victim.organizationId, skip)).toEqual(before);
  console.info(`tenant isolation: ${cases.length} mixed-id requests`);
});

test("ids nested in bodies: another tenant's member, organization and workflow are not found", async () => {
  const token = attacker.owner.token;
  const transfer = await api.request('POST', `/api/v1/organizations/${attacker.organizationId}/transfer-ownership`, {
    token,
    body: { userID: resources.member.userId },
  });
  expect([404, 422]).toContain(transfer.status);
  const sw = await api.request('POST', '/api/auth/switch-organization', { token, body: { organizationID: victim.organizationId } });
  expect([403, 404]).toContain(sw.status);
  const sub = await api.request('POST', '/api/v1/workflows', {
    token,
    body: { name: 'borrow', dag: { nodes: [{ id: 's', type: 'subworkflow', config: { workflow_id: resources.workflowId } }], edges: [] } },
  });
  expect([404, 422]).toContain(sub.status);
  // Refused for the foreign id, not for a malformed node: the same body with the attacker's own workflow saves.
  const mine = await api.request('POST', '/api/v1/workflows', {
    token,
    body: { name: 'own', dag: { nodes: [{ id: 's', type: 'subworkflow', config: { workflow_id: attackerResources.workflowId } }], edges: [] } },
  });
  expect(mine.status).toBe(201);
  expect(sub.text).not.toContain('victim workflow');
  // The victim's owner is still the owner, and nobody joined the victim's organization.
  const owner = await api.deps.db('memberships').where({ organization_id: victim.organizationId, role: 'owner' }).first();
  expect(owner.user_id).toBe(victim.owner.userId);
  const attackerMembership = await api.deps.db('memberships').where({ organization_id: victim.organizationId, user_id: attacker.owner.userId }).first();
  expect(attackerMembership).toBeUndefined();
});
