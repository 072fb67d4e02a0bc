import type { RouteDef } from '../../../api/http/route';
import { createVictimResources, fillPath, isEnvelope, victimPathValues, type VictimResources } from '../../helpers/security';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Fuzzing every endpoint of the OpenAPI document with a valid token: malformed path ids, wrong-typed and oversized
 * query values, bad JSON, bad UTF-8, wrong types for each documented body property, missing and extra fields,
 * `__proto__`/`constructor` payloads, deep nesting, lying content types, broken multipart. The API must never
 * answer 5xx, must answer every 4xx in the error envelope, and no payload may pollute Object.prototype (the API
 * runs in this process, so a pollution would be visible here).
 */

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[] };

interface FuzzCase {
  label: string;
  path: string;
  headers?: Record<string, string>;
  rawBody?: string | Buffer;
}

let api: TestApi;
let tenant: TestTenant;
let resources: VictimResources;

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
  resources = await createVictimResources(api, tenant);
});

afterAll(async () => {
  await api?.close();
});

const HUGE = 'x'.repeat(200_000);
const WRONG_VALUES: unknown[] = [null, true, -1e308, 'not-what-you-want', [1, 'a', null], { nested: { deeper: [] } }, '\u0000\ud800'];
const DEEP_ARRAY = '['.repeat(10_000) + ']'.repeat(10_000);
const DEEP_OBJECT = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
const BAD_UTF8 = Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]);

function bodySchema(doc: Record<string, unknown>, route: RouteDef): JsonSchema | undefined {
  const paths = doc.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  return paths[route.path]?.[route.method]?.requestBody?.content?.['application/json']?.schema;
}

function queryNames(doc: Record<string, unknown>, route: RouteDef): string[] {
  const paths = doc.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  return (paths[route.path]?.[route.method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
}

function casesFor(doc: Record<string, unknown>, route: RouteDef): FuzzCase[] {
  const values = victimPathValues(tenant, resources, route);
  const path = fillPath(route.path, values);
  const out: FuzzCase[] = [];
  // Path parameters: each in turn replaced by hostile spellings.
  for (const name of [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
    for (const bad of ['not-a-uuid', '-1', '..%2F..%2Fetc%2Fpasswd', '%00', '%ff%fe', 'x'.repeat(5000), "1' OR '1'='1"]) {
      out.push({ label: `path ${name}=${bad.slice(0, 20)}`, path: fillPath(route.path, { ...values, [name]: '\u0001' }).replace('%01', bad) });
    }
  }
  // Query: documented names with wrong types and sizes, repeated, and an unknown name.
  for (const name of queryNames(doc, route)) {
    for (const bad of ['abc', '-1', '1e309', 'x'.repeat(10_000), '%ff%00']) {
      out.push({ label: `query ${name}=${bad.slice(0, 20)}`, path: `${path}?${name}=${bad}` });
    }
    out.push({ label: `query ${name} repeated`, path: `${path}?${name}=1&${name}=2` });
    out.push({ label: `query ${name}[__proto__]`, path: `${path}?${name}[__proto__][polluted]=1&__proto__[polluted]=1` });
  }
  out.push({ label: 'unknown query', path: `${path}?__proto__[polluted]=1&constructor[prototype][polluted]=1&zzz=1` });
  if (route.method === 'get') return out;
  const formats = route.bodyFormats ?? ['json'];
  if (formats.includes('raw')) {
    out.push({ label: 'multipart without boundary', path, headers: { 'content-type': 'multipart/form-data' }, rawBody: 'garbage' });
    out.push({ label: 'multipart wrong boundary', path, headers: { 'content-type': 'multipart/form-data; boundary=abc' }, rawBody: '--xyz\r\n\r\nhello\r\n--xyz--' });
    out.push({ label: 'multipart truncated', path, headers: { 'content-type': 'multipart/form-data; boundary=abc' }, rawBody: '--abc\r\nContent-Disposition: form-data; name="file"; filename="../../a"\r\n\r\nhel' });
    out.push({ label: 'raw json pollution', path, headers: { 'content-type': 'application/json' }, rawBody: '{"__proto__":{"polluted":1}}' });
    out.push({ label: 'raw bad utf8', path, headers: { 'content-type': 'application/json' }, rawBody: BAD_UTF8 });
    return out;
  }
  const json = (label: string, body: unknown) => out.push({ label, path, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
  const raw = (label: string, rawBody: string | Buffer, contentType = 'application/json') =>
    out.push({ label, path, headers: { 'content-type': contentType }, rawBody });
  raw('bad json', '{"a":');
  raw('bad json trailing', '{} {}');
  raw('bad utf8', BAD_UTF8);
  raw('deep array', DEEP_ARRAY);
  raw('deep object', DEEP_OBJECT);
  raw('json as text/plain', '{}', 'text/plain');
  raw('xml', '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', 'application/xml');
  raw('proto', '{"__proto__":{"polluted":1},"name":"x"}');
  raw('constructor', '{"constructor":{"prototype":{"polluted":1}},"name":"x"}');
  if (formats.includes('yaml')) {
    raw('yaml bomb', 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]', 'application/yaml');
    raw('yaml proto', '__proto__:\n  polluted: 1\nname: x', 'application/yaml');
    raw('yaml tag', 'name: !!js/function "function(){return 1}"', 'application/yaml');
  }
  for (const top of [null, [], 'string', 42, true]) json(`top-level ${JSON.stringify(top)}`, top);
  json('empty object', {});
  json('extra field', { zzzUnknownField: 1 });
  const schema = bodySchema(doc, route);
  const props = Object.keys(schema?.properties ?? {});
  for (const prop of props) {
    for (const value of WRONG_VALUES) json(`body ${prop}=${JSON.stringify(value)?.slice(0, 20)}`, { [prop]: value });
  }
  // Every documented property at once with a huge string (within the body limit), and a template-looking one.
  json('huge strings', Object.fromEntries(props.map((p) => [p, HUGE])));
  json('template strings', Object.fromEntries(props.map((p) => [p, '${7*7}{{7*7}}#{constructor}'])));
  return out;
}

/** Routes that end the caller's session or organization run last, so they do not turn the rest into 401s. */
const LAST = new Set(['logout', 'deleteOrganization', 'transferOwnership', 'revokeSession', 'changePassword', 'switchOrganization']);

test('every endpoint survives malformed input: no 5xx, always the envelope, no prototype pollution', async () => {
  const doc = api.app.openApi();
  const routes = api.app.routes;
  const failures: string[] = [];
  let sent = 0;
  let fiveHundreds = 0;
  const fuzzRoute = async (route: RouteDef) => {
    for (const c of casesFor(doc, route)) {
      const res = await api.request(route.method.toUpperCase(), c.path, { token: tenant.owner.token, headers: c.headers, rawBody: c.rawBody });
      sent += 1;
      const label = `${route.method} ${route.path} [${c.label}] -> ${res.status} ${res.text.slice(0, 160)}`;
      if (res.status >= 500) {
        fiveHundreds += 1;
        failures.push(label);
      } else if (res.status >= 400 && !isEnvelope(res.body)) {
        failures.push(`no envelope: ${label}`);
      }
    }
  };
  // Four routes at a time; the session- and organization-ending routes afterwards, one by one.
  const queue = routes.filter((r) => !LAST.has(r.operationId));
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let route = queue.shift(); route; route = queue.shift()) await fuzzRoute(route);
    }),
  );
  for (const route of routes.filter((r) => LAST.has(r.operationId))) await fuzzRoute(route);
  expect(failures).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  console.info(`fuzz: ${sent} malformed requests over ${routes.length} routes, ${fiveHundreds} answered 5xx`);
}, 240_000);
