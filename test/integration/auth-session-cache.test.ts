import type { Knex } from 'knex';
import { useCachedReplicas, writeUnnoticed } from '../helpers/cachedReplicas';
import { probeUntil } from '../helpers/probe';
import type { TestApi } from '../helpers/stack';
import { createTestUser, type TestUser } from '../helpers/tenants';

/**
 * The session check's cache (domain/auth/sessionCheckCache.ts, docs/auth.md#session-check), seen from two replicas
 * and a third connection (test/helpers/cachedReplicas.ts). Unnoticed writes show what the cache serves when nobody
 * tells it.
 */
let a: TestApi;
let b: TestApi;
let sql: Knex;
useCachedReplicas((replicas) => ({ a, b, sql } = replicas));

async function me(api: TestApi, user: TestUser) {
  return api.request('GET', '/api/auth/me', { token: user.token });
}

/** Makes `api` remember the user's session: answers from memory once it listens for changes (shortly after start). */
async function remembered(api: TestApi, user: TestUser, name: string): Promise<void> {
  const served = await probeUntil(
    3000,
    async () => {
      await sql('users').where({ id: user.userId }).update({ name }); // a notice evicts any older copy
      await new Promise((r) => setTimeout(r, 20));
      await me(api, user); // read and kept
      // A write no one is told about shows whether the next answer comes from memory.
      await writeUnnoticed(sql, (trx) => trx('users').where({ id: user.userId }).update({ name: `${name} (silent)` }));
      return (await me(api, user)).body?.user?.name as string;
    },
    (n) => n === name,
  );
  expect(served).toBe(name);
}

test('an instance answers from memory, and a change by anyone else reaches it at once', async () => {
  const user = await createTestUser(a);
  await remembered(b, user, 'Before');
  // A normal write (a trigger sends the notice at its commit) reaches instance b without any request to it.
  await sql('users').where({ id: user.userId }).update({ name: 'After' });
  const seen = await probeUntil(1000, () => me(b, user), (r) => r.body?.user?.name === 'After');
  expect(seen.body.user.name).toBe('After');
});

test('a logout on one instance is refused by the other within a second, though it remembered the session', async () => {
  const user = await createTestUser(a);
  await remembered(b, user, 'Remembered');
  expect((await a.request('POST', '/api/auth/logout', { token: user.token })).status).toBe(204);
  const refused = await probeUntil(1000, () => me(b, user), (r) => r.status === 401);
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('SESSION_EXPIRED');
});

test("an instance's own write is seen by its very next request, before any notice", async () => {
  const user = await createTestUser(a);
  await remembered(a, user, 'Own');
  // Deleted through a's own database handle with notices switched off: only the eviction before the write can tell.
  await writeUnnoticed(a.deps.db, (trx) => trx('sessions').where({ id: user.sessionId }).delete());
  const next = await me(a, user);
  expect(next.status).toBe(401);
});

test('an expired session is refused from memory too: expiry is checked on every request', async () => {
  const user = await createTestUser(a);
  await remembered(b, user, 'Expiring');
  await writeUnnoticed(sql, (trx) => trx('sessions').where({ id: user.sessionId }).update({ expires_at: new Date(Date.now() + 1500) }));
  // The silent change is not seen, but the remembered expiry still passes, so evict to load it once...
  await sql('sessions').where({ id: user.sessionId }).update({ user_agent: 'touched' });
  await probeUntil(1000, () => me(b, user), (r) => r.status === 200);
  await new Promise((r) => setTimeout(r, 1600));
  // ...and the remembered row now expires by the clock alone.
  expect((await me(b, user)).status).toBe(401);
});

test('without its change feed an instance serves nothing from memory, then listens again', async () => {
  const user = await createTestUser(a);
  await remembered(b, user, 'Listening');
  // Cut every listening connection (both instances'): the next requests must read the database.
  await sql.raw(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN loom_auth_changed' AND pid <> pg_backend_pid()",
  );
  await new Promise((r) => setTimeout(r, 200));
  await writeUnnoticed(sql, (trx) => trx('users').where({ id: user.userId }).update({ name: 'Read from the database' }));
  expect((await me(b, user)).body.user.name).toBe('Read from the database');
  // It listens again (retry after 0.5 s) and serves from memory once more.
  await remembered(b, user, 'Listening again');
});
