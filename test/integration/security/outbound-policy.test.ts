import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { outboundGuards } from '../../../lib/net/outbound';
import { SsrfRefusedError } from '../../../lib/net/ssrfGuard';
import { startPrivatePostgres, type PrivatePostgres } from '../../helpers/faults';
import { createWorkflowFixture, startRun, toolNode, waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';
import { runTool, toolContext } from '../../helpers/tools';

/**
 * The outbound policy (lib/net/outbound.ts, docs/security.md#outbound-policy), attacked as a member would:
 * - the database tool, run by the real worker, with connection strings whose query string or host form would make
 *   the driver connect somewhere other than the host checked (the platform's own database, its Unix socket);
 * - an organization's embedding provider pointed at internal services, reached by a search in the API process;
 * - the platform's own services with an operator allow-list that opens every loopback address.
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

describe('database tool connection strings (real worker, no allow-list)', () => {
  const attacks: [string, string][] = [
    ['postgres://postgres@93.184.216.34:5432/loom?host=127.0.0.1', 'INVALID_CONNECTION_STRING'],
    ['postgres://postgres@93.184.216.34:5432/loom?host=/var/run/postgresql', 'INVALID_CONNECTION_STRING'],
    ['postgres://postgres@93.184.216.34:5432/loom?hostaddr=127.0.0.1', 'INVALID_CONNECTION_STRING'],
    ['postgres://postgres@93.184.216.34:5432/loom?port=5432&host=localhost', 'INVALID_CONNECTION_STRING'],
    ['postgres://postgres@93.184.216.34/loom?sslmode=require&sslkey=/etc/ssl/private/ssl-cert-snakeoil.key', 'INVALID_CONNECTION_STRING'],
    ['postgres://postgres@93.184.216.34/loom?sslrootcert=/etc/passwd', 'INVALID_CONNECTION_STRING'],
    ['postgres://%2Fvar%2Frun%2Fpostgresql/loom', 'INVALID_CONNECTION_STRING'],
    ['postgres:///loom?host=/var/run/postgresql', 'INVALID_CONNECTION_STRING'],
    ['postgres://postgres@[::127.0.0.1]:5432/loom', 'URL_REFUSED'],
    ['postgres://postgres@[::ffff:127.0.0.1]:5432/loom', 'URL_REFUSED'],
    ['postgres://postgres@[::1]:5432/loom', 'URL_REFUSED'],
    ['postgres://postgres@localhost:5432/loom', 'URL_REFUSED'],
    ['postgres://postgres@0.0.0.0:5432/loom', 'URL_REFUSED'],
    ['postgres://postgres@2130706433:5432/loom', 'URL_REFUSED'],
  ];

  test(`${attacks.length} connection strings fail their run without a row of the platform's data`, async () => {
    const runs = await Promise.all(
      attacks.map(async ([connection_string]) => {
        const workflowId = await createWorkflowFixture(api, tenant, {
          status: 'active',
          nodes: [toolNode('q', 'db_query', { connection_string, sql: 'SELECT count(*) AS users FROM users' })],
        });
        return { workflowId, runId: (await startRun(api, tenant.owner.token, workflowId)).id as string };
      }),
    );
    const outcomes: string[] = [];
    for (const [i, { workflowId, runId }] of runs.entries()) {
      const run = await waitForRun(api, tenant.owner.token, workflowId, runId);
      const text = JSON.stringify(run);
      const code = run.errors?.[0]?.code ?? run.node_states?.q?.error?.code ?? text.slice(0, 200);
      outcomes.push(`${attacks[i]![0]} -> ${run.status} ${code}${text.includes('"users"') ? ' (ROWS LEAKED)' : ''}`);
    }
    expect(outcomes).toEqual(attacks.map(([cs, code]) => `${cs} -> failed ${code}`));
  }, 120_000);
});

describe('platform services stay unreachable under an allow-list of every loopback address', () => {
  let open: TestApi;
  let tenantDb: PrivatePostgres;

  beforeAll(async () => {
    open = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.0/8,::1,localhost', WEBHOOKS_ALLOWED_PRIVATE_HOSTS: '127.0.0.0/8,::1' });
    tenantDb = await startPrivatePostgres(path.join(process.env.LOOM_TEST_DIR ?? os.tmpdir(), `outbound-pg-${randomUUID().slice(0, 8)}`));
  }, 120_000);

  afterAll(async () => {
    await tenantDb?.exit();
    await open?.close();
  });

  const tool = (id: string, input: Record<string, unknown>) => runTool(id, input, toolContext(open, tenant.organizationId));

  test("the platform's database is refused even through an allow-listed address; a tenant database is not", async () => {
    const platform = new URL(open.config.database.url);
    const variants = [platform.toString(), `postgres://postgres@localhost:${platform.port || 5432}/postgres`, `postgres://postgres@127.0.0.7:${platform.port || 5432}/loom`];
    for (const connection_string of variants) {
      await expect(tool('db_query', { connection_string, sql: 'SELECT 1' })).rejects.toMatchObject({ code: 'URL_REFUSED', message: expect.stringContaining("platform's own PostgreSQL") });
    }
    // Positive control: the same allow-list reaches a tenant's own database on loopback.
    await expect(tool('db_query', { connection_string: tenantDb.url, sql: 'SELECT 42 AS answer' })).resolves.toMatchObject({ rows: [{ answer: 42 }] });
  });

  test('MinIO, Temporal, Temporal Web, SMTP and the API are refused to tools and webhooks by port', async () => {
    const c = open.config;
    const services = [
      `http://127.0.0.1:${c.minio.port}/minio/health/live`,
      `http://[::1]:${c.minio.port}/`,
      `http://localhost:${new URL(c.temporal.uiUrl).port}/api/v1/namespaces`,
      `http://127.0.0.1:${c.temporal.address.split(':').pop()}/`,
      `http://127.0.0.1:${c.mail.port}/`,
      `http://127.0.0.1:${c.http.port}/api/v1/organizations`,
    ];
    for (const url of services) {
      await expect(tool('http_request', { url })).rejects.toMatchObject({ code: 'URL_REFUSED', message: expect.stringContaining("platform's own") });
      await expect(outboundGuards(c).webhooks.vet(url)).rejects.toThrow(SsrfRefusedError);
    }
  });
});

describe("an organization's embedding provider (search in the API process)", () => {
  let server: http.Server;
  let hits = 0;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits += 1;
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ internal: 'secret-upstream-body' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  async function searchWith(a: TestApi, t: TestTenant, baseUrl: string) {
    const settings = {
      integration: { thirdParty: { embeddings: { enabled: true, config: { provider: 'openai', baseUrl, model: 'probe', dimensions: '4' } } } },
    };
    await a.deps.db('organizations').where({ id: t.organizationId }).update({ settings: JSON.stringify(settings) });
    return a.request('POST', '/api/v1/content/search', { token: t.owner.token, body: { query: 'anything', mode: 'semantic' } });
  }

  test('internal base URLs are never called, and the error shows neither their answer nor an address', async () => {
    const t = await createTestTenant(api);
    const port = (server.address() as AddressInfo).port;
    const minio = api.config.minio.port;
    for (const baseUrl of [`http://127.0.0.1:${port}/v1`, `http://localhost:${port}/v1`, `http://[::ffff:127.0.0.1]:${port}/v1`, `http://127.0.0.1:${minio}/loom`, 'http://[::1]:5432/', 'http://169.254.169.254/latest']) {
      const res = await searchWith(api, t, baseUrl);
      expect([res.status, res.body.error?.code]).toEqual([502, 'UPSTREAM_ERROR']);
      expect(res.text).not.toMatch(/secret-upstream-body|127\.0\.0\.1|::1|169\.254/);
    }
    expect(hits).toBe(0);
  });

  test('with the operator allow-list the same endpoint is reached (the check above can fail), its body still hidden', async () => {
    const allowed = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1' });
    try {
      const t = await createTestTenant(allowed);
      const res = await searchWith(allowed, t, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
      expect(res.status).toBe(502);
      expect(res.text).not.toContain('secret-upstream-body');
      expect(hits).toBe(1);
    } finally {
      await allowed.close();
    }
  });
});
