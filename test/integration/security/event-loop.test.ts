import { randomUUID } from 'node:crypto';
import type { RouteDef } from '../../../api/http/route';
import { uploadContent } from '../../helpers/content';
import { loopDelayDuring } from '../../helpers/eventLoop';
import { createVictimResources, isEnvelope, victimPathValues, type VictimResources } from '../../helpers/security';
import { startApi, type TestApi, type TestResponse } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant, type TestUser } from '../../helpers/tenants';

/**
 * The event-loop guard (docs/security.md, capacity model: API event loop): the API runs in this process
 * (test/helpers/stack.ts), so the delay its work adds to the event loop is measured here with
 * `perf_hooks.monitorEventLoopDelay` while one request at a time is in flight. Every documented operation gets the
 * largest input it allows (the body-size limit's worth of JSON: one huge key, every documented field huge, a
 * hundred thousand short keys), and no request may add more than MAX_ADDED_MS to the loop's delay over the idle
 * loop's own noise. A request over the bound is sent twice more and judged by its best try: a loaded machine
 * (two cores, two test files at a time) stalls a process now and then, while work a request causes stalls every try.
 *
 * Before the bounds, `POST /api/auth/register` with a 1 MB field name held the loop 2.5-5 s (the "did you mean"
 * hint), `POST /api/v1/workflows/validate` with a 200 KB one 5.2 s, and extracting from a 16 MB XML of one huge
 * attribute 1.9-2.8 s, and a 1 MB YAML body of short keys on the workflow routes minutes.
 */

const MAX_ADDED_MS = 100;
const TRIES = 3;

let api: TestApi;
let tenant: TestTenant;
let resources: VictimResources;
let limitMs: number;
let idleMs: number;

/** The loop's noise right now: the largest delay over three small requests. */
async function noiseNowMs(): Promise<number> {
  let worst = 0;
  for (let i = 0; i < 3; i++) worst = Math.max(worst, (await loopDelayDuring(() => api.request('GET', '/healthz'))).delayMs);
  return worst;
}

/**
 * The request's best of TRIES, as the delay it adds: over the idle limit, a try is judged against the noise measured
 * right after it (a burst of load on the machine delays small requests as much), so the result is the delay minus
 * that noise's excess over the idle noise. Stops at the first try within the limit.
 */
async function measured(send: () => Promise<TestResponse>): Promise<{ res: TestResponse; delayMs: number }> {
  let best: { res: TestResponse; delayMs: number } | null = null;
  for (let i = 0; i < TRIES && (best === null || best.delayMs > limitMs); i++) {
    const { result, delayMs } = await loopDelayDuring(send);
    const judged = delayMs > limitMs ? delayMs - Math.max(0, (await noiseNowMs()) - idleMs) : delayMs;
    if (best === null || judged < best.delayMs) best = { res: result, delayMs: judged };
  }
  return best!;
}

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
  resources = await createVictimResources(api, tenant);
  // The idle loop's noise on this machine: small requests, their 90th percentile.
  const samples: number[] = [];
  for (let i = 0; i < 30; i++) samples.push((await loopDelayDuring(() => api.request('GET', '/healthz'))).delayMs);
  samples.sort((a, b) => a - b);
  idleMs = samples[Math.floor(samples.length * 0.9)]!;
  limitMs = idleMs + MAX_ADDED_MS;
}, 180_000);

afterAll(async () => {
  await api?.close();
});

interface Case {
  label: string;
  path: string;
  contentType?: string;
  body?: string;
}

type JsonSchema = { properties?: Record<string, unknown> };

function documentedFields(doc: Record<string, unknown>, route: RouteDef): string[] {
  const paths = doc.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  return Object.keys(paths[route.path]?.[route.method]?.requestBody?.content?.['application/json']?.schema?.properties ?? {});
}

function queryNames(doc: Record<string, unknown>, route: RouteDef): string[] {
  const paths = doc.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  return (paths[route.path]?.[route.method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
}

/** The largest inputs a route accepts: `bytes` of JSON in three shapes, or the longest query a URL may carry. */
function largestInputs(doc: Record<string, unknown>, route: RouteDef, bytes: number): Case[] {
  // Path parameters with no fixture (a route newer than the helper) get a random id: a 404 is a fine answer too.
  const values = victimPathValues(tenant, resources, route);
  const path = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? randomUUID()));
  const names = queryNames(doc, route);
  // Node refuses request heads past 16 KB: each documented query value gets its share of 12 KB.
  const query = names.length ? `?${names.map((n) => `${n}=${'x'.repeat(Math.floor(12_000 / names.length) - n.length - 2)}`).join('&')}` : '';
  if (route.method === 'get' || (!route.body && !(route.bodyFormats ?? []).includes('raw'))) {
    return [{ label: 'longest query', path: `${path}${query}` }];
  }
  const json = (label: string, value: unknown): Case => ({ label, path, contentType: 'application/json', body: JSON.stringify(value) });
  const cases = [json('one huge key', { ['k'.repeat(bytes - 16)]: 1 })];
  if ((route.bodyFormats ?? []).includes('raw')) return cases;
  const fields = documentedFields(doc, route);
  const share = Math.floor((bytes - 16 * (fields.length + 1)) / Math.max(1, fields.length + 1));
  cases.push(json('every field huge', Object.fromEntries([...fields, 'zzUnknownField'].map((f) => [f, 'x'.repeat(share - f.length)]))));
  cases.push(json('100,000 short keys', Object.fromEntries(Array.from({ length: Math.floor(bytes / 14) }, (_, i) => [`k${String(i).padStart(7, '0')}`, 1]))));
  if ((route.bodyFormats ?? []).includes('yaml')) {
    const yaml = (label: string, body: string): Case => ({ label: `YAML ${label}`, path, contentType: 'application/yaml', body });
    cases.push(yaml('80,000 short keys', Array.from({ length: Math.floor(bytes / 13) }, (_, i) => `k${String(i).padStart(7, '0')}: 1`).join('\n')));
    cases.push(yaml('one huge string', `name: "${'x'.repeat(bytes - 16)}"\n`));
  }
  return cases;
}

/** Routes that end the caller's session or organization go last, so they do not turn the rest into 401s. */
const LAST = new Set(['logout', 'deleteOrganization', 'transferOwnership', 'revokeSession', 'changePassword', 'switchOrganization']);

test('no request to any documented operation, with its largest input, adds more than 100 ms to the loop delay', async () => {
  const doc = api.app.openApi();
  const bytes = api.config.http.bodyLimitBytes - 64;
  const routes = [...api.app.routes.filter((r) => !LAST.has(r.operationId)), ...api.app.routes.filter((r) => LAST.has(r.operationId))];
  const over: string[] = [];
  const broken: string[] = [];
  let sent = 0;
  let worst = { label: '', delayMs: 0 };
  for (const route of routes) {
    for (const c of largestInputs(doc, route, bytes)) {
      const send = () =>
        api.request(route.method.toUpperCase(), c.path, {
          token: tenant.owner.token,
          ...(c.body !== undefined ? { rawBody: c.body, headers: { 'content-type': c.contentType! } } : {}),
        });
      const { res, delayMs } = await measured(send);
      sent += 1;
      const label = `${route.method} ${route.path} [${c.label}] -> ${res.status}`;
      if (delayMs > worst.delayMs) worst = { label, delayMs };
      if (delayMs > limitMs) over.push(`${label}: ${Math.round(delayMs)} ms`);
      // The answer to a huge input is a short refusal, not the input echoed back.
      if (res.status >= 500 || (res.status >= 400 && (!isEnvelope(res.body) || res.text.length > 50_000))) {
        broken.push(`${label} (${res.text.length} characters): ${res.text.slice(0, 200)}`);
      }
    }
  }
  console.info(
    `event-loop guard: ${sent} requests over ${routes.length} routes; idle loop ${Math.round(idleMs)} ms (p90), limit ${Math.round(limitMs)} ms; ` +
      `worst ${Math.round(worst.delayMs)} ms (${worst.label})`,
  );
  expect(over).toEqual([]);
  expect(broken).toEqual([]);
}, 900_000);

describe('the findings, one by one', () => {
  // The sweep's last routes end its tenant's session and organization: these use a fresh tenant.
  let owner: TestTenant;
  let viewer: TestUser;
  beforeAll(async () => {
    owner = await createTestTenant(api);
    viewer = await addTestMember(api, owner, 'viewer');
  });

  test('register with a 1 MB field name: a short 400, the loop stays free', async () => {
    const { res, delayMs } = await measured(() => api.request('POST', '/api/auth/register', { body: { ['n'.repeat(1_000_000)]: 'x' } }));
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(2_000);
    expect(delayMs).toBeLessThanOrEqual(limitMs);
  });

  test('validate with 200 KB names where hints are computed: short 400s, the loop stays free', async () => {
    const node = { id: 'a', type: 'tool', config: { tool: 'json_transform', config: { expression: '1' } } };
    const huge = 'x'.repeat(200_000);
    for (const body of [
      { name: 'w', [huge]: 1, dag: { nodes: [node] } },
      { name: 'w', dag: { nodes: [{ ...node, [huge]: 1 }] } },
      { name: 'w', tools: [huge], dag: { nodes: [node] } },
      { name: 'w', error_handling: { [huge]: 1 }, dag: { nodes: [node] } },
    ]) {
      const { res, delayMs } = await measured(() => api.request('POST', '/api/v1/workflows/validate', { token: owner.owner.token, body }));
      expect([400, 422]).toContain(res.status);
      expect(res.text.length).toBeLessThan(5_000);
      expect(delayMs).toBeLessThanOrEqual(limitMs);
    }
  });

  // Validated by the API's validation thread (domain/workflows/validationThread.ts): on the loop it took ~50 ms idle
  // and over a second on a loaded machine.
  test('validate and save the largest allowed workflow (2,000 nodes in a chain): valid, the loop stays free', async () => {
    const nodes = Array.from({ length: 2000 }, (_, i) => ({
      id: `n${i}`,
      type: 'tool',
      config: { tool: 'json_transform', config: { expression: '$', data: { previous: i ? `{{n${i - 1}.result}}` : 0 } } },
    }));
    const edges = nodes.slice(1).map((node, i) => ({ from: `n${i}`, to: node.id }));
    const { res, delayMs } = await measured(() => api.request('POST', '/api/v1/workflows/validate', { token: owner.owner.token, body: { name: 'largest', dag: { nodes, edges } } }));
    expect(res.status).toBe(200);
    console.info(`event-loop guard: the largest workflow's validation added ${Math.round(delayMs)} ms (limit ${Math.round(limitMs)} ms)`);
    expect(delayMs).toBeLessThanOrEqual(limitMs);
    let saved = 0;
    const created = await measured(() => api.request('POST', '/api/v1/workflows', { token: owner.owner.token, body: { name: `largest ${++saved}`, dag: { nodes, edges } } }));
    expect(created.res.status).toBe(201);
    expect(created.delayMs).toBeLessThanOrEqual(limitMs);
    // A broken one is refused with its problems, from the thread too.
    const broken = await api.request('POST', '/api/v1/workflows/validate', {
      token: owner.owner.token,
      body: { name: 'largest', dag: { nodes, edges: [...edges, { from: 'n1999', to: 'n0' }] } },
    });
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe('WORKFLOW_INVALID');
  });

  test('a 16 MB XML of one huge attribute, extracted by a viewer: a clear 422, the loop stays free', async () => {
    const xml = Buffer.concat([Buffer.from('<root a="'), Buffer.alloc(16 * 1024 * 1024, 'x'), Buffer.from('"/>')]);
    const upload = await uploadContent(api, owner.owner.token, { bytes: xml, filename: 'big.xml', type: 'application/xml' });
    expect(upload.status).toBe(201);
    for (const body of [{ type: 'fields', fields: ['root.@a'] }, { type: 'text' }, { type: 'jsonata', expression: 'root' }, { type: 'regex', pattern: 'x+y' }]) {
      const { res, delayMs } = await measured(() => api.request('POST', `/api/v1/content/${upload.body.id}/extract`, { token: viewer.token, body }));
      expect({ type: body.type, status: res.status, code: res.body?.error?.code }).toEqual({ type: body.type, status: 422, code: 'UNPROCESSABLE' });
      expect(res.body.error.message).toMatch(/longer than 1,000,000 characters/);
      expect(delayMs).toBeLessThanOrEqual(limitMs);
    }
  }, 120_000);

  test('a large valid XML and CSV, extracted by a viewer: correct results, the loop stays free', async () => {
    const items = 100_000;
    const xml = `<root>${Array.from({ length: items }, (_, i) => `<item n="${i}">value ${i}</item>`).join('')}</root>`;
    const csv = `name,count\n${Array.from({ length: items }, (_, i) => `row${i},${i}`).join('\n')}\n`;
    const xmlUpload = await uploadContent(api, owner.owner.token, { bytes: Buffer.from(xml), filename: 'items.xml', type: 'application/xml' });
    const csvUpload = await uploadContent(api, owner.owner.token, { bytes: Buffer.from(csv), filename: 'rows.csv', type: 'text/csv' });
    expect([xmlUpload.status, csvUpload.status]).toEqual([201, 201]);
    const extract = (id: string, body: unknown) => measured(() => api.request('POST', `/api/v1/content/${id}/extract`, { token: viewer.token, body }));

    const fields = await extract(xmlUpload.body.id, { type: 'fields', fields: ['root.item[99999].@n', 'root.item[5].#text'] });
    expect(fields.res.status).toBe(200);
    expect(fields.res.body.result).toEqual({ 'root.item[99999].@n': '99999', 'root.item[5].#text': 'value 5' });
    expect(fields.delayMs).toBeLessThanOrEqual(limitMs);

    const jsonata = await extract(csvUpload.body.id, { type: 'jsonata', expression: '$[99995].name' });
    expect(jsonata.res.status).toBe(200);
    expect(jsonata.res.body.result).toBe('row99995');
    expect(jsonata.delayMs).toBeLessThanOrEqual(limitMs);

    const text = await extract(csvUpload.body.id, { type: 'text', maxChars: 30 });
    expect(text.res.status).toBe(200);
    expect(text.res.body.result).toEqual({ text: expect.stringMatching(/^name: row0; count: 0\n/), truncated: true, format: 'text' });
    expect(text.delayMs).toBeLessThanOrEqual(limitMs);

    const regex = await extract(xmlUpload.body.id, { type: 'regex', pattern: 'item\\[9999\\]\\.@n: (\\d+)' });
    expect(regex.res.status).toBe(200);
    expect(regex.res.body.result.matches).toEqual([expect.objectContaining({ groups: ['9999'] })]);
    expect(regex.delayMs).toBeLessThanOrEqual(limitMs);
  }, 180_000);
});
