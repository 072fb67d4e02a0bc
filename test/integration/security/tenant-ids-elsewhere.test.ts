import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { RouteDef } from '../../../api/http/route';
import { createVictimResources, fillPath, isEnvelope, victimPathValues, type VictimResources } from '../../helpers/security';
import { createWorkflowFixture, runToEnd, toolNode } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Tenant ids outside paths: organization B's ids given by A's owner in query strings, in request bodies and in
 * the configs of workflow nodes. The query and body fields that carry ids are found in the route declarations and
 * the OpenAPI document, so a new id-bearing field fails the coverage check below until it is attacked here.
 * Every answer is a 404/refusal or A's own (empty) data: no id or content of B appears in it.
 */

const ID_NAME = /(^|_)ids?$|Ids?$|ID$|^actor$/;
const VICTIM_SECRET = `victim-file-${randomUUID()}`;

let api: TestApi;
let attacker: TestTenant;
let victim: TestTenant;
let theirs: VictimResources;
let mine: VictimResources;
let victimJobId: string;
let victimEndpointId: string;
let victimIds: string[];

async function insertDeadLetter(t: TestTenant, r: VictimResources): Promise<string> {
  const [row] = await api.deps.db('dead_letters')
    .insert({
      organization_id: t.organizationId,
      workflow_id: r.workflowId,
      workflow_version: 1,
      run_id: r.runId,
      node_id: 'only',
      tool: 'json_transform',
      input: JSON.stringify({ secret: VICTIM_SECRET }),
      error: JSON.stringify({ code: 'X', message: 'parked' }),
      attempts: 1,
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id');
  return row.id as string;
}

beforeAll(async () => {
  api = await startApi();
  [attacker, victim] = await Promise.all([createTestTenant(api), createTestTenant(api)]);
  [theirs, mine] = await Promise.all([createVictimResources(api, victim), createVictimResources(api, attacker)]);
  await Promise.all([insertDeadLetter(victim, theirs), insertDeadLetter(attacker, mine)]);
  victimJobId = (await api.deps.db('content_processing_jobs').where({ organization_id: victim.organizationId }).first('id')).id as string;
  const settings = await api.request('PUT', `/api/v1/organizations/${victim.organizationId}/settings`, {
    token: victim.owner.token,
    body: {
      integration: {
        webhooks: [{ url: 'https://hooks.example.com/loom', events: ['content.uploaded'], secret: 'whsec_dmljdGltLXNpZ25pbmctc2VjcmV0LTAxMjM0NTY3' }],
        thirdParty: { warehouse: { enabled: true, secrets: { connectionString: api.config.database.url } } },
      },
    },
  });
  if (settings.status !== 200) throw new Error(`victim settings: ${settings.status} ${settings.text}`);
  victimEndpointId = settings.body.integration.webhooks[0].id as string;
  // The victim writes a workflow file through a real run of its own.
  const wrote = await runToEnd(
    api,
    victim.owner.token,
    await createWorkflowFixture(api, victim, { status: 'active', nodes: [toolNode('write', 'content_write', { path: 'shared/secret.txt', content: VICTIM_SECRET })] }),
  );
  if (wrote.status !== 'completed') throw new Error(`victim write: ${JSON.stringify(wrote).slice(0, 400)}`);
  victimIds = [victim.organizationId, theirs.workflowId, theirs.runId, theirs.contentId, theirs.member.userId, victim.owner.userId, victimJobId, victimEndpointId];
});

afterAll(async () => {
  await api?.close();
});

function leaks(text: string): string[] {
  return [...victimIds, VICTIM_SECRET, 'victim secret text'].filter((needle) => text.includes(needle));
}

function idQueryParams(route: RouteDef): string[] {
  const shape = (route.query as z.ZodObject<z.ZodRawShape> | undefined)?.shape;
  return shape ? Object.keys(shape).filter((name) => ID_NAME.test(name)) : [];
}

test("ids of another tenant in query strings (every id-like filter of every route) find nothing of it", async () => {
  const values: Record<string, () => string> = {
    workflow_id: () => theirs.workflowId,
    run_id: () => theirs.runId,
    jobId: () => victimJobId,
    actor: () => victim.owner.userId,
  };
  const cases = api.app.routes.filter((r) => r.auth !== 'public' && r.method === 'get').flatMap((route) => idQueryParams(route).map((param) => ({ route, param })));
  expect(cases.length).toBeGreaterThanOrEqual(4);
  expect(cases.filter(({ param }) => !values[param]).map(({ route, param }) => `${route.operationId} ?${param}`)).toEqual([]);
  const failures: string[] = [];
  for (const { route, param } of cases) {
    const path = fillPath(route.path, victimPathValues(attacker, mine, route));
    const res = await api.request('GET', `${path}?${param}=${encodeURIComponent(values[param]!())}`, { token: attacker.owner.token });
    const refused = res.status === 404 && isEnvelope(res.body);
    const emptyList = res.status === 200 && Array.isArray(res.body?.data) && res.body.data.length === 0;
    if (!(refused || emptyList) || leaks(res.text).length) failures.push(`${route.operationId} ?${param} -> ${res.status} ${res.text.slice(0, 160)}`);
  }
  expect(failures).toEqual([]);

  // The controls: the same filters with A's own ids find A's rows, so an empty answer above means "not yours".
  const ownDead = await api.request('GET', `/api/v1/dead-letters?workflow_id=${mine.workflowId}`, { token: attacker.owner.token });
  expect(ownDead.body.data).toHaveLength(1);
  const ownAudit = await api.request('GET', `/api/v1/organizations/${attacker.organizationId}/audit-logs?actor=${attacker.owner.userId}`, { token: attacker.owner.token });
  expect(ownAudit.body.data.length).toBeGreaterThan(0);
  console.info(`tenant ids elsewhere: ${cases.length} id-bearing query parameters attacked`);
});

/** Request-body properties with id-like names, from the OpenAPI document: `<operationId> <dotted path>`. */
async function idBodyFields(): Promise<string[]> {
  const doc = (await api.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; requestBody?: { content?: Record<string, { schema?: unknown }> } }>> };
  const found: string[] = [];
  const resolve = (ref: string): unknown => ref.split('/').slice(1).reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], doc);
  const walk = (schema: unknown, at: string, depth: number, op: string): void => {
    const s = schema as { $ref?: string; items?: unknown; properties?: Record<string, unknown>; allOf?: unknown[]; anyOf?: unknown[]; oneOf?: unknown[] } | undefined;
    if (!s || typeof s !== 'object' || depth > 12) return;
    if (s.$ref) return walk(resolve(s.$ref), at, depth + 1, op);
    for (const list of [s.allOf, s.anyOf, s.oneOf]) for (const sub of list ?? []) walk(sub, at, depth + 1, op);
    if (s.items) walk(s.items, `${at}[]`, depth + 1, op);
    for (const [name, sub] of Object.entries(s.properties ?? {})) {
      if (ID_NAME.test(name)) found.push(`${op} ${at}${at ? '.' : ''}${name}`);
      walk(sub, `${at}${at ? '.' : ''}${name}`, depth + 1, op);
    }
  };
  for (const methods of Object.values(doc.paths)) {
    for (const operation of Object.values(methods)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (schema) walk(schema, '', 0, operation.operationId);
    }
  }
  return found.sort();
}

test('ids of another tenant in request bodies: content filters find nothing, a foreign webhook endpoint id is refused', async () => {
  const attackedHere = ['queryContent filter.ids', 'searchContent filters.ids', 'updateSettings integration.webhooks[].id'];
  // Attacked in tenant-isolation.test.ts ("ids nested in bodies").
  const attackedThere = ['switchOrganization organizationID', 'transferOwnership userID'];
  // A subworkflow's workflow_id: another tenant's workflow is refused at save and in the dry run
  // (workflows.test.ts "subworkflow ... in this organization", "dry run"); update goes through the same compile.
  const subworkflowIds = ['createWorkflow', 'updateWorkflow', 'validateWorkflow'].map((op) => `${op} dag.nodes[].config.workflow_id`);
  // Ids that name parts of the definition itself (nodes, declared tools, triggers), chosen by its author.
  const definitionIds = ['createWorkflow', 'updateWorkflow', 'validateWorkflow'].flatMap((op) => ['dag.nodes[].id', 'tools[].id', 'triggers[].id'].map((f) => `${op} ${f}`));
  // Identifiers of external identity providers, not ids of this platform's resources.
  const notResourceIds = ['updateSettings integration.sso.oidc.clientId', 'updateSettings integration.sso.saml.entityId'];
  const fields = await idBodyFields();
  const accounted = [...attackedHere, ...attackedThere, ...subworkflowIds, ...definitionIds, ...notResourceIds];
  expect(fields.filter((f) => !accounted.includes(f))).toEqual([]);
  expect(fields).toEqual(expect.arrayContaining(attackedHere));

  const token = attacker.owner.token;
  const query = await api.request('POST', '/api/v1/content/query', { token, body: { filter: { ids: [theirs.contentId] } } });
  expect(query.status).toBe(200);
  expect(query.body.data).toEqual([]);
  const ownQuery = await api.request('POST', '/api/v1/content/query', { token, body: { filter: { ids: [mine.contentId, theirs.contentId] } } });
  expect(ownQuery.body.data.map((c: { id: string }) => c.id)).toEqual([mine.contentId]);
  for (const mode of ['keyword', 'semantic', 'hybrid']) {
    const search = await api.request('POST', '/api/v1/content/search', { token, body: { query: 'victim secret text', mode, filters: { ids: [theirs.contentId] } } });
    expect(search.status).toBe(200);
    expect(search.body.data).toEqual([]);
    expect(leaks(search.text)).toEqual([]);
  }
  // The control: the same search over A's own content (the same text) finds it.
  const ownSearch = await api.request('POST', '/api/v1/content/search', { token, body: { query: 'victim secret text', mode: 'keyword', filters: { ids: [mine.contentId, theirs.contentId] } } });
  expect(ownSearch.body.data.map((r: { content: { id: string } }) => r.content.id)).toEqual([mine.contentId]);
  for (const res of [query, ownQuery]) expect(leaks(res.text)).toEqual([]);

  const before = (await api.deps.db('organizations').where({ id: victim.organizationId }).first('settings')).settings;
  const hijack = await api.request('PUT', `/api/v1/organizations/${attacker.organizationId}/settings`, {
    token,
    body: { integration: { webhooks: [{ id: victimEndpointId, url: 'https://attacker.example.com/steal', events: ['content.uploaded'] }] } },
  });
  expect([400, 404, 422]).toContain(hijack.status);
  expect(isEnvelope(hijack.body)).toBe(true);
  expect(leaks(hijack.text)).toEqual([]);
  expect((await api.deps.db('organizations').where({ id: victim.organizationId }).first('settings')).settings).toEqual(before);
  const attackerSettings = (await api.deps.db('organizations').where({ id: attacker.organizationId }).first('settings')).settings;
  expect(JSON.stringify(attackerSettings ?? {})).not.toContain(victimEndpointId);
});

describe('ids and references of another tenant in node configs', () => {
  test('a loop whose template is a subworkflow of another tenant is refused at save time; the same with an own workflow saves', async () => {
    const loop = (workflowId: string) => ({
      name: `loop ${randomUUID().slice(0, 6)}`,
      dag: { nodes: [{ id: 'each', type: 'loop', config: { items: '${[1, 2]}', template: { type: 'subworkflow', config: { workflow_id: workflowId } } } }] },
    });
    const foreign = await api.request('POST', '/api/v1/workflows', { token: attacker.owner.token, body: loop(theirs.workflowId) });
    expect([404, 422]).toContain(foreign.status);
    expect(leaks(foreign.text).filter((l) => l !== theirs.workflowId)).toEqual([]);
    expect(foreign.text).not.toContain('victim workflow');
    const own = await api.request('POST', '/api/v1/workflows', { token: attacker.owner.token, body: loop(mine.workflowId) });
    expect(own.status).toBe(201);
  });

  test("file tools reach only the tenant's own files: another tenant's paths, object keys and traversal fail, nothing of it in the run", async () => {
    const workflowId = await createWorkflowFixture(api, attacker, {
      status: 'active',
      parameters: [{ name: 'path', type: 'string', required: true }],
      errorHandling: { default_strategy: 'fail_fast' },
      nodes: [toolNode('read', 'content_read', { path: '${params.path}' })],
    });
    const paths: [string, string][] = [
      ['shared/secret.txt', 'FILE_NOT_FOUND'],
      [`org/${victim.organizationId}/workflow-files/shared/secret.txt`, 'FILE_NOT_FOUND'],
      [`/org/${victim.organizationId}/workflow-files/shared/secret.txt`, 'FILE_NOT_FOUND'],
      [`org/${victim.organizationId}/content/${theirs.contentId}/1/original`, 'FILE_NOT_FOUND'],
      [`../../${victim.organizationId}/workflow-files/shared/secret.txt`, 'INVALID_PATH'],
      [`shared/../../../${victim.organizationId}/workflow-files/shared/secret.txt`, 'INVALID_PATH'],
      [`..%2f..%2f${victim.organizationId}%2fworkflow-files%2fshared%2fsecret.txt`, 'INVALID_PATH'],
    ];
    // One after the other: on this 2-core machine seven runs started together took ~25 s, one after the other ~3 s.
    const runs = [];
    for (const [path] of paths) runs.push(await runToEnd(api, attacker.owner.token, workflowId, { path }));
    const failures: string[] = [];
    runs.forEach((run, i) => {
      const [path, code] = paths[i]!;
      const error = run.node_states?.read?.error;
      if (run.status !== 'failed' || error?.code !== code) failures.push(`${path}: ${run.status} ${JSON.stringify(error)}`);
      const found = leaks(JSON.stringify(run)).filter((l) => !path.includes(l));
      if (found.length) failures.push(`${path}: the run shows ${found.join(', ')}`);
    });
    expect(failures).toEqual([]);
  });

  test("an integration configured only by another tenant is not found by name (db_query integration: 'warehouse')", async () => {
    const workflowId = await createWorkflowFixture(api, attacker, {
      status: 'active',
      errorHandling: { default_strategy: 'fail_fast' },
      nodes: [toolNode('q', 'db_query', { integration: 'warehouse', sql: 'SELECT current_database() AS db' })],
    });
    const run = await runToEnd(api, attacker.owner.token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.node_states.q.error.code).toBe('DB_NOT_CONFIGURED');
    expect(JSON.stringify(run)).not.toContain(api.config.database.url);
  });
});
