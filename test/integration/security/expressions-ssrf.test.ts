import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorkflowFixture, startRun, toolNode, waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';
import { runTool, toolContext } from '../../helpers/tools';

/**
 * Expressions and SSRF. Attempts to reach JavaScript from conditions and `${...}` templates are refused when the
 * workflow is saved (422); hostile regexes and deep nesting are bounded. The http_request tool, run by the real
 * worker process (which has no private-host allowlist), refuses every internal destination with URL_REFUSED; with
 * a first-hop-only allowlist, redirects into internal hosts are refused too, and slow or huge answers are cut.
 */

let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
});

afterAll(async () => {
  await api?.close();
});

function workflowWith(nodes: unknown[], edges: { from: string; to: string }[] = []) {
  return { name: `hostile ${randomUUID().slice(0, 6)}`, dag: { nodes, edges } };
}
const transform = (id: string, expression: string, data: unknown = null) => ({ id, type: 'tool', config: { tool: 'json_transform', config: { expression, data } } });

describe('expressions are refused at save time', () => {
  const hostile = [
    'constructor',
    'this',
    'this.constructor',
    'process',
    'process.env',
    'require("fs")',
    'require',
    'globalThis',
    '"".constructor',
    'params.constructor.constructor("return process")()',
    'params["constructor"]',
    'params.__proto__',
    'size(params) > 0 && process.exit(1)',
    'matches(params.s, "(a+)+$")',
    'matches(params.s, "(a|aa)*b")',
    'matches(params.s, "(.*a){25}")',
    `${'('.repeat(10_000)}1${')'.repeat(10_000)}`,
    `${'('.repeat(1_900)}1${')'.repeat(1_900)}`,
    `${'['.repeat(1_900)}1${']'.repeat(1_900)}`,
  ];

  test.each(hostile.map((e) => [e.length > 60 ? `${e.slice(0, 40)}... (${e.length} chars)` : e, e]))('condition %s -> 422', async (_label, expression) => {
    const body = workflowWith(
      [transform('a', '1'), { id: 'gate', type: 'condition', config: { expression, trueBranch: 'b' } }, transform('b', '2')],
      [{ from: 'a', to: 'gate' }],
    );
    const res = await api.request('POST', '/api/v1/workflows', { token: tenant.owner.token, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('WORKFLOW_INVALID');
  });

  test.each(hostile.slice(0, 13).map((e) => [e]))('template ${%s} in a tool config -> 422', async (expression) => {
    const body = workflowWith([
      { id: 'call', type: 'tool', config: { tool: 'http_request', config: { url: `https://example.com/\${${expression}}` } } },
    ]);
    const res = await api.request('POST', '/api/v1/workflows', { token: tenant.owner.token, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('WORKFLOW_INVALID');
  });
});

describe('SSRF from http_request at run time (real worker, no allowlist)', () => {
  const internal = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://0.0.0.0/',
    'http://localhost/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[64:ff9b:1::7f00:1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://user:pass@127.0.0.1/',
    'file:///etc/passwd',
    'ftp://127.0.0.1/',
    'gopher://127.0.0.1:6379/_INFO',
    'data:text/plain,hello',
  ];

  test(`${internal.length} internal or non-http destinations fail their run with URL_REFUSED`, async () => {
    const runs = await Promise.all(
      internal.map(async (url) => {
        const workflowId = await createWorkflowFixture(api, tenant, { status: 'active', nodes: [toolNode('call', 'http_request', { url })] });
        const run = await startRun(api, tenant.owner.token, workflowId);
        return { url, workflowId, runId: run.id as string };
      }),
    );
    const outcomes: string[] = [];
    for (const { url, workflowId, runId } of runs) {
      const run = await waitForRun(api, tenant.owner.token, workflowId, runId);
      const text = JSON.stringify(run);
      outcomes.push(`${url} -> ${run.status} ${text.includes('URL_REFUSED') ? 'URL_REFUSED' : text.slice(0, 300)}`);
    }
    expect(outcomes).toEqual(internal.map((url) => `${url} -> failed URL_REFUSED`));
  }, 90_000);
});

describe('redirects and caps (first hop allowlisted)', () => {
  let server: http.Server;
  let base: string;
  let toolsApi: TestApi;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const port = (server.address() as AddressInfo).port;
      if (req.url === '/to-loopback') return res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
      if (req.url === '/to-localhost') return res.writeHead(301, { location: `http://localhost:${port}/secret` }).end();
      if (req.url === '/to-metadata') return res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/to-ipv6') return res.writeHead(302, { location: `http://[::1]:${port}/secret` }).end();
      if (req.url === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        let sent = 0;
        const pump = () => {
          while (sent < 50 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
          if (sent >= 50 * 1024 * 1024) res.end();
        };
        res.on('drain', pump);
        res.on('close', () => (sent = Infinity));
        return pump();
      }
      if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), 200);
        res.on('close', () => clearInterval(timer));
        return undefined;
      }
      return res.writeHead(200).end('reachable');
    });
    // 127.0.0.2 is loopback too; only it is allowlisted, so a redirect to 127.0.0.1 is a new, refused host.
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', () => r()));
    base = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
    toolsApi = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.2', TOOLS_HTTP_TIMEOUT: '1s', TOOLS_HTTP_MAX_RESPONSE_BYTES: '65536' });
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await toolsApi?.close();
  });

  const call = (url: string) => runTool('http_request', { url }, toolContext(toolsApi, tenant.organizationId));

  test('the allowlisted first hop is reachable', async () => {
    expect(await call(`${base}/plain`)).toMatchObject({ status: 200 });
  });

  test.each(['/to-loopback', '/to-localhost', '/to-metadata', '/to-ipv6', '/to-file'])('redirect %s is refused', async (path) => {
    await expect(call(`${base}${path}`)).rejects.toMatchObject({ code: 'URL_REFUSED' });
  });

  test('a DNS name spelled to dodge the name check (LOCALHOST.) does not reach loopback', async () => {
    const port = (server.address() as AddressInfo).port;
    await expect(call(`http://LOCALHOST.:${port}/secret`)).rejects.toHaveProperty('code');
  });

  test('a huge answer is cut at the response cap', async () => {
    const err = await call(`${base}/huge`).then(() => null, (e: unknown) => e as { code?: string });
    expect(err?.code).toBeDefined();
    expect(err?.code).not.toBe('URL_REFUSED');
  });

  test('a slow answer is cut at the time limit', async () => {
    const err = await call(`${base}/slow`).then(() => null, (e: unknown) => e as { code?: string });
    expect(err?.code).toBeDefined();
  });
});
