import type { RouteDef } from '../../../api/http/route';
import { can, ROLES, type Role } from '../../../lib/permissions';
import { createVictimResources, fillPath, isEnvelope, victimPathValues, type VictimResources } from '../../helpers/security';
import { startApi, type TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant, type TestUser } from '../../helpers/tenants';

/**
 * Role matrix, generated from the route declarations: every organization route x method x role, against the one
 * permission table (lib/permissions.ts). Refused exactly when `can(role, permission)` says no (403 FORBIDDEN in the
 * envelope); when allowed, never 401/403 (the fixture input is minimal, so 400/404/409/422 are fine). Each role
 * acts in its own organization holding one real resource of each kind, so allowed calls reach real rows.
 */

let api: TestApi;
interface RoleFixture {
  tenant: TestTenant;
  actor: TestUser;
  resources: VictimResources;
}
const fixtures = new Map<Role, RoleFixture>();

/**
 * Routes whose service adds an "own resources" rule on top of the permission (documented in their descriptions):
 * an allowed role may still get 403 when acting on someone else's row.
 */
const OWN_RESOURCE_RULES = new Set<string>([
  // workflows: members change only the workflows they created
  'updateWorkflow',
  'deleteWorkflow',
  'activateWorkflow',
  'pauseWorkflow',
  'archiveWorkflow',
  'rotateWebhookTriggerSecret',
  'syncWorkflowTriggers',
  // content: members change only the content they created
  'deleteContent',
  'uploadContentVersion',
  'processContent',
  'embedContent',
  // members: anyone may leave (remove themselves); removing others needs members:manage
  'removeMember',
  // approvals: only the approval's approvers decide (role order, listed users), and not on a run they started
  'decideApproval',
]);

/** Own-resource refusals name the rule; a refusal by role ("role x may not ...") is never acceptable here. */
function isOwnResourceRefusal(route: RouteDef, message: string): boolean {
  if (!OWN_RESOURCE_RULES.has(route.operationId)) return false;
  return route.operationId === 'removeMember' ? message.includes('members:manage') : !message.startsWith('role ');
}

beforeAll(async () => {
  api = await startApi();
  await Promise.all(
    ROLES.map(async (role) => {
      const tenant = await createTestTenant(api);
      const resources = await createVictimResources(api, tenant);
      const actor = role === 'owner' ? tenant.owner : await addTestMember(api, tenant, role);
      fixtures.set(role, { tenant, actor, resources });
    }),
  );
});

afterAll(async () => {
  await api?.close();
});

/** Destructive organization-wide routes run last, so they cannot disturb the rest of the matrix. */
const LAST = ['deleteOrganization', 'transferOwnership'];

function orderedOrgRoutes(routes: RouteDef[]): RouteDef[] {
  const org = routes.filter((r) => r.auth === 'org' && r.permission);
  const rank = (r: RouteDef) => (LAST.includes(r.operationId) ? 2 : r.method === 'delete' ? 1 : 0);
  return [...org].sort((a, b) => rank(a) - rank(b));
}

test('every organization route x role matches the permission table', async () => {
  const routes = orderedOrgRoutes(api.app.routes);
  expect(routes.length).toBeGreaterThan(60);
  const failures: string[] = [];
  let cases = 0;
  let refused = 0;
  for (const role of ROLES) {
    const { tenant, actor, resources } = fixtures.get(role)!;
    for (const route of routes) {
      const allowed = can(role, route.permission!);
      const path = fillPath(route.path, victimPathValues(tenant, resources, route));
      const raw = (route.bodyFormats ?? []).includes('raw');
      const res = await api.request(route.method.toUpperCase(), path, {
        token: actor.token,
        body: route.body && !raw ? {} : undefined,
      });
      cases += 1;
      const label = `${role} ${route.method} ${route.path} (${route.operationId}, ${route.permission}) -> ${res.status} ${res.text.slice(0, 140)}`;
      if (allowed) {
        if ((res.status === 401 || res.status === 403) && !isOwnResourceRefusal(route, String(res.body?.error?.message))) failures.push(`allowed but refused: ${label}`);
      } else if (res.status === 403 && res.body?.error?.code === 'FORBIDDEN') {
        refused += 1;
      } else {
        failures.push(`forbidden but answered: ${label}`);
      }
      if (res.status >= 500) failures.push(`5xx: ${label}`);
      if (res.status >= 400 && !isEnvelope(res.body)) failures.push(`no envelope: ${label}`);
    }
  }
  expect(failures).toEqual([]);
  console.info(`role matrix: ${cases} route x role cases checked, ${refused} refused by the permission table`);
});

test('demotion and removal take effect on access tokens already issued', async () => {
  const tenant = await createTestTenant(api);
  const member = await addTestMember(api, tenant, 'member');
  const body = { name: 'demotion probe', dag: { nodes: [{ id: 'a', type: 'tool', config: { tool: 'json_transform', config: { expression: '1' } } }], edges: [] } };
  const before = await api.request('POST', '/api/v1/workflows', { token: member.token, body });
  expect(before.status).toBe(201);

  const demote = await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/members/${member.userId}`, {
    token: tenant.owner.token,
    body: { role: 'viewer' },
  });
  expect(demote.status).toBe(200);
  const afterDemotion = await api.request('POST', '/api/v1/workflows', { token: member.token, body });
  expect(afterDemotion.status).toBe(403);
  expect(afterDemotion.body.error.code).toBe('FORBIDDEN');
  expect((await api.request('GET', '/api/v1/workflows', { token: member.token })).status).toBe(200);

  const remove = await api.request('DELETE', `/api/v1/organizations/${tenant.organizationId}/members/${member.userId}`, {
    token: tenant.owner.token,
  });
  expect(remove.status).toBe(204);
  const afterRemoval = await api.request('GET', '/api/v1/workflows', { token: member.token });
  expect(afterRemoval.status).toBe(403);
  expect(afterRemoval.body.error.code).toBe('FORBIDDEN');
  const pathOrg = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}`, { token: member.token });
  expect(pathOrg.status).toBe(404);
});
