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
  updateContent: { title: 'stolen' },
  extractContent: { type: 'text' },
  putContentEmbedding: { vector: [0.1, 0.2, 0.3] },
};

let api: TestApi;
let attacker: TestTenant;
let victim: TestTenant;
let resources: VictimResources;

beforeAll(async () => {
  // Usage counters flush every 50 ms, so the victim's own fixture calls are written before the first snapshot.
  api = await startApi({ SERVICE_USAGE_FLUSH_INTERVAL: '50ms' });
  attacker = await createTestTenant(api);
  victim = await createTestTenant(api);
  resources = await createVictimResources(api, victim);
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
    if (res.status !== 404 || !isEnvelope(res.body)) failures.push(`${route.method} ${route.path} (${route.operationId}) -> ${res.status} ${res.text.slice(0, 160)}`);
  }
  const after = await snapshotOrganization(api.deps.db, victim.organizationId, skip);
  expect(failures).toEqual([]);
  expect(after).toEqual(before);
  console.info(`tenant isolation: ${ordered.length} cross-tenant requests refused with 404`);
});
