import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, RUN_TEST_CONFIG, runToEnd, toolNode, type RunBody } from '../helpers/runs';
import { workflowFileKey } from '../../activities/tools/support/files';
import { runObjectKey } from '../../activities/runs/values';
import { parseCsvText, parseXmlText } from '../../lib/textParsers';
import { INLINE_PARSE_CHARS } from '../../lib/expressions/sandbox';

/**
 * A parsing tool's large output is made in the sandbox and comes back serialized (lib/serializedJson.ts): the worker
 * stores those bytes as they are. Stored byte for byte as the same parse in place would serialize, and read by the
 * next node like any stored output (the real stack, 2 KB large-output threshold). The same holds for the JSON that
 * content_read and http_request parse: 5-10 MB of it held the worker's event loop 100-200 ms.
 */
let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  ({ api, tenant } = await startApiWithTenant(RUN_TEST_CONFIG));
});
afterAll(async () => {
  await api?.close();
});

const XML = `<r>${Array.from({ length: 4000 }, (_, i) => `<i id="${i}">v${i}</i>`).join('')}</r>`;
const CSV = `a,b\n${Array.from({ length: 8000 }, (_, i) => `${i},${i * 2}`).join('\n')}\n`;

async function putFile(name: string, text: string): Promise<void> {
  const body = Buffer.from(text);
  await api.deps.storage.putObject(api.config.minio.bucket, workflowFileKey(tenant.organizationId, name), body, body.length);
}

/** A run of the workflow, to its end, every node of it completed. */
async function completedRun(workflowId: string): Promise<RunBody> {
  const run = await runToEnd(api, tenant.owner.token, workflowId);
  const notCompleted = Object.entries(run.node_states as Record<string, { status: string }>).filter(([, node]) => node.status !== 'completed');
  expect({ status: run.status, notCompleted }).toEqual({ status: 'completed', notCompleted: [] });
  return run;
}

async function storedOutput(runId: string, nodeId: string): Promise<string> {
  const stream = await api.deps.storage.getObject(api.config.minio.bucket, runObjectKey(tenant.organizationId, runId, nodeId));
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

test('large XML and CSV parses are stored as their in-place serialization and read downstream', async () => {
  expect(Math.min(XML.length, CSV.length)).toBeGreaterThan(INLINE_PARSE_CHARS);
  await putFile('parses/big.xml', XML);
  await putFile('parses/big.csv', CSV);
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [
      toolNode('readXml', 'content_read', { path: 'parses/big.xml' }),
      toolNode('xml', 'xml_parse', { always_array: ['i'] }, { inputs: [{ name: 'text', from: 'readXml.content' }] }),
      toolNode('pickXml', 'json_transform', { expression: "r.i[1234].'@_id' & '/' & r.i[3999].'#text'" }, { inputs: [{ name: 'data', from: 'xml.result' }] }),
      toolNode('readCsv', 'content_read', { path: 'parses/big.csv' }),
      toolNode('csv', 'csv_parse', {}, { inputs: [{ name: 'text', from: 'readCsv.content' }] }),
      toolNode('pickCsv', 'json_transform', { expression: '{ "count": $count($), "b": $[7999].b }' }, { inputs: [{ name: 'data', from: 'csv.rows' }] }),
    ],
    edges: [
      { from: 'readXml', to: 'xml' },
      { from: 'xml', to: 'pickXml' },
      { from: 'readCsv', to: 'csv' },
      { from: 'csv', to: 'pickCsv' },
    ],
  });
  const run = await completedRun(workflowId);
  expect(run.results.pickXml).toEqual({ result: '1234/v3999' });
  expect(run.results.pickCsv).toEqual({ result: { count: 8000, b: '15998' } });
  // The bytes stored are exactly what the worker would have written after parsing in place.
  expect(await storedOutput(run.id, 'xml')).toBe(JSON.stringify({ result: parseXmlText(XML, { always_array: ['i'] }) }));
  expect(await storedOutput(run.id, 'csv')).toBe(JSON.stringify(parseCsvText(CSV, {})));
});

/** 12,000 small objects: ~380 KB of JSON, many values (what makes JSON.parse slow). */
const JSON_DOC = { items: Array.from({ length: 12_000 }, (_, i) => ({ id: i, name: `item ${i}`, ok: i % 2 === 0 })) };

test('large JSON read by content_read, answered to http_request or made by json_transform stays off the loop and is read downstream', async () => {
  const text = JSON.stringify(JSON_DOC);
  expect(text.length).toBeGreaterThan(INLINE_PARSE_CHARS);
  await putFile('parses/big.json', text);
  await putFile('parses/broken.json', `${text.slice(0, -1)},`);
  // Tools may reach 127.0.0.3 here (test/setup/globalSetup.ts), the stand-in for a public API.
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(req.url === '/broken' ? `${text}}` : text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.3', resolve));
  const base = `http://127.0.0.3:${(server.address() as AddressInfo).port}`;
  try {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [
        toolNode('read', 'content_read', { path: 'parses/big.json', encoding: 'json' }),
        toolNode('pickRead', 'json_transform', { expression: 'items[11999].name & "/" & $string($count(items))' }, { inputs: [{ name: 'data', from: 'read.content' }] }),
        toolNode('fetch', 'http_request', { url: `${base}/doc` }),
        toolNode('pickFetch', 'json_transform', { expression: 'items[5000].id' }, { inputs: [{ name: 'data', from: 'fetch.body' }] }),
        toolNode('fetchBroken', 'http_request', { url: `${base}/broken` }),
        // A transform's large result comes back as the output's JSON too (activities/tools/json_transform.ts).
        toolNode('build', 'json_transform', { expression: '[1..20000].{"n": $, "s": "sourdough"}' }),
        toolNode('pickBuild', 'json_transform', { expression: '$sum(n) & "/" & $[19999].s' }, { inputs: [{ name: 'data', from: 'build.result' }] }),
      ],
      edges: [
        { from: 'read', to: 'pickRead' },
        { from: 'fetch', to: 'pickFetch' },
        { from: 'build', to: 'pickBuild' },
      ],
    });
    const run = await completedRun(workflowId);
    expect(run.results.pickRead).toEqual({ result: 'item 11999/12000' });
    expect(run.results.pickFetch).toEqual({ result: 5000 });
    expect(run.results.pickBuild).toEqual({ result: '200010000/sourdough' });
    const built = JSON.parse(await storedOutput(run.id, 'build')) as { result: unknown[] };
    expect({ items: built.result.length, last: built.result[19_999] }).toEqual({ items: 20_000, last: { n: 20_000, s: 'sourdough' } });
    const read = JSON.parse(await storedOutput(run.id, 'read')) as Record<string, unknown>;
    expect(read).toEqual({ path: 'parses/big.json', bytes: text.length, content_type: expect.anything(), content: JSON_DOC });
    const fetched = JSON.parse(await storedOutput(run.id, 'fetch')) as Record<string, unknown>;
    expect(fetched).toMatchObject({ status: 200, url: `${base}/doc`, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON_DOC });
    // A body that says JSON but is not stays the text it was, as in place.
    expect(JSON.parse(await storedOutput(run.id, 'fetchBroken'))).toMatchObject({ status: 200, body: `${text}}` });

    const broken = await createWorkflowFixture(api, tenant, { nodes: [toolNode('read', 'content_read', { path: 'parses/broken.json', encoding: 'json' })] });
    const failed = await runToEnd(api, tenant.owner.token, broken);
    expect(failed.node_states.read.error).toMatchObject({ code: 'INVALID_JSON', message: 'parses/broken.json is not JSON' });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
