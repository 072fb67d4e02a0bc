import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../helpers/stack';
import { createDb, migrateLatest, migrateRollbackAll } from '../../db/knex';
import { Client as PgClient } from 'pg';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.close();
});

describe('HTTP foundation', () => {
  test('healthz answers', async () => {
    const res = await api.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  test('readyz reports all three services healthy', async () => {
    const res = await api.request('GET', '/readyz');
    expect(res.body.services.postgres.ok).toBe(true);
    expect(res.body.services.temporal.ok).toBe(true);
    expect(res.body.services.minio.ok).toBe(true);
    expect(res.status).toBe(200);
  });

  test('unknown route is a 404 in the envelope', async () => {
    const res = await api.request('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(typeof res.body.error.message).toBe('string');
  });

  test('wrong method on a known path is 405 in the envelope', async () => {
    const res = await api.request('DELETE', '/healthz');
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  test('openapi document is served and describes every mounted route', async () => {
    const res = await api.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const route of api.app.routes) {
      expect(res.body.paths[route.path]?.[route.method]).toBeDefined();
    }
  });

  test('a caller-supplied request id is echoed, a hostile one replaced', async () => {
    const ok = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(ok.headers.get('x-request-id')).toBe('abc-123');
    const bad = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'a b<script>' } });
    expect(bad.headers.get('x-request-id')).not.toBe('a b<script>');
  });
});

describe('readiness with a dead service', () => {
  test('readyz goes red quickly when PostgreSQL is unreachable', async () => {
    const broken = await startApi({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' });
    try {
      const started = Date.now();
      const res = await broken.request('GET', '/readyz');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(res.status).toBe(503);
      expect(res.body.services.postgres.ok).toBe(false);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await broken.close();
    }
  });
});

describe('migrations', () => {
  test('apply from scratch, roll back completely, and apply again', async () => {
    const name = `loom_mig_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const serverUrl = new URL(process.env.DATABASE_URL!);
    serverUrl.pathname = '/postgres';
    const server = new PgClient({ connectionString: serverUrl.toString() });
    await server.connect();
    await server.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const db = createDb(url.toString(), 2);
    try {
      const applied = await migrateLatest(db);
      expect(applied.length).toBeGreaterThan(0);
      expect(await db.schema.hasTable('users')).toBe(true);
      await migrateRollbackAll(db);
      expect(await db.schema.hasTable('users')).toBe(false);
      expect((await migrateLatest(db)).length).toBe(applied.length);
    } finally {
      await db.destroy();
      await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.end();
    }
  });

  test('the spec tables have the specified shape', async () => {
    const db = api.deps.db;
    const user = await db('users').insert({ email: 'shape@example.com' }).returning('*');
    expect(user[0].email_verified).toBe(false);
    expect(user[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user[0].created_at).toBeInstanceOf(Date);
    await expect(db('users').insert({ email: 'SHAPE@example.com' })).rejects.toThrow(/unique/i);
    await db('sessions').insert({ user_id: user[0].id, token: 't1', expires_at: new Date(Date.now() + 1000) });
    await db('accounts').insert({ user_id: user[0].id, provider: 'github', provider_account_id: '1' });
    await expect(
      db('accounts').insert({ user_id: user[0].id, provider: 'github', provider_account_id: '1' }),
    ).rejects.toThrow(/unique/i);
    await expect(db('sessions').insert({ user_id: user[0].id, token: 'x', expires_at: new Date(), ip_address: 'x'.repeat(46) })).rejects.toThrow();
    await db('users').where({ id: user[0].id }).delete();
    expect(await db('sessions').where({ user_id: user[0].id })).toHaveLength(0);
    expect(await db('accounts').where({ user_id: user[0].id })).toHaveLength(0);
  });
});
