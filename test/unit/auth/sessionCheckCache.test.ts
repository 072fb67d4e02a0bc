import { randomUUID } from 'node:crypto';
import type { SessionForAuth } from '../../../domain/auth/queries';
import { idsOfAuthWrite } from '../../../domain/auth/authChangeListener';
import { createSessionCheckCache } from '../../../domain/auth/sessionCheckCache';

function row(overrides: Partial<SessionForAuth> = {}): SessionForAuth {
  const userId = overrides.user_id ?? randomUUID();
  return {
    id: randomUUID(),
    user_id: userId,
    expires_at_ms: Date.now() + 60_000,
    updated_at_ms: Date.now(),
    active_organization_id: null,
    sso_organization_id: null,
    organization_idle_timeout_minutes: null,
    user: { id: userId, email: 'a@example.com', name: 'A', image: null, email_verified: false, created_at: new Date(), updated_at: new Date() },
    ...overrides,
  };
}

function counted(value: SessionForAuth | undefined) {
  const load = jest.fn(async () => value);
  return load;
}

describe('session check cache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  test('serves nothing until its change feed is live, then serves a current copy within the TTL', async () => {
    const cache = createSessionCheckCache({ ttlMs: 5000, maxEntries: 10, now });
    const session = row();
    const load = counted(session);
    await cache.read(session.id, load);
    await cache.read(session.id, load);
    expect(load).toHaveBeenCalledTimes(2);

    cache.setServing(true);
    await cache.read(session.id, load);
    await cache.read(session.id, load);
    expect(load).toHaveBeenCalledTimes(3);
    clock += 4999;
    expect(await cache.read(session.id, load)).toBe(session);
    expect(load).toHaveBeenCalledTimes(3);
    clock += 1;
    await cache.read(session.id, load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  test('a TTL of 0 never serves', async () => {
    const cache = createSessionCheckCache({ ttlMs: 0, maxEntries: 10, now });
    cache.setServing(true);
    const session = row();
    const load = counted(session);
    await cache.read(session.id, load);
    await cache.read(session.id, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test('evicts by session, by user and by active organization, and everything for null', async () => {
    const cache = createSessionCheckCache({ ttlMs: 60_000, maxEntries: 10, now });
    cache.setServing(true);
    const organizationId = randomUUID();
    const userId = randomUUID();
    const a = row({ user_id: userId });
    const b = row({ user_id: userId, active_organization_id: organizationId });
    const c = row({ active_organization_id: organizationId });
    const d = row();
    for (const r of [a, b, c, d]) await cache.read(r.id, counted(r));
    expect(cache.size).toBe(4);

    cache.evict([a.id]);
    expect(cache.size).toBe(3);
    cache.evict([userId]);
    expect(cache.size).toBe(2); // b went with its user
    cache.evict([organizationId]);
    expect(cache.size).toBe(1); // c acted in the organization
    cache.evict([randomUUID()]);
    expect(cache.size).toBe(1);
    cache.evict(null);
    expect(cache.size).toBe(0);
  });

  test('a read that overlaps an eviction does not keep what it read', async () => {
    const cache = createSessionCheckCache({ ttlMs: 60_000, maxEntries: 10, now });
    cache.setServing(true);
    const session = row();
    let release: () => void = () => undefined;
    const slow = jest.fn(
      () =>
        new Promise<SessionForAuth>((resolve) => {
          release = () => resolve(session);
        }),
    );
    const pending = cache.read(session.id, slow);
    cache.evict([session.id]); // the row changed while it was being read
    release();
    expect(await pending).toBe(session);
    expect(cache.size).toBe(0);
    const load = counted(session);
    await cache.read(session.id, load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('losing the change feed forgets everything; an absent session is never kept', async () => {
    const cache = createSessionCheckCache({ ttlMs: 60_000, maxEntries: 10, now });
    cache.setServing(true);
    const session = row();
    await cache.read(session.id, counted(session));
    cache.setServing(false);
    expect(cache.size).toBe(0);
    cache.setServing(true);
    const missing = counted(undefined);
    await cache.read('gone', missing);
    await cache.read('gone', missing);
    expect(missing).toHaveBeenCalledTimes(2);
  });

  test('holds at most maxEntries, dropping the oldest', async () => {
    const cache = createSessionCheckCache({ ttlMs: 60_000, maxEntries: 3, now });
    cache.setServing(true);
    const rows = [row(), row(), row(), row()];
    for (const r of rows) await cache.read(r.id, counted(r));
    expect(cache.size).toBe(3);
    const first = counted(rows[0]);
    await cache.read(rows[0]!.id, first);
    expect(first).toHaveBeenCalledTimes(1);
    const last = counted(rows[3]);
    await cache.read(rows[3]!.id, last);
    expect(last).toHaveBeenCalledTimes(0);
  });
});

describe('writes that change what a session check copies', () => {
  const id = randomUUID();
  test.each([
    ['update "sessions" set "updated_at" = now() where "id" = ? and "updated_at" < ?', [id, new Date()]],
    ['delete from "sessions" where "id" = ?', [id]],
    ['update "users" set "name" = ? where "id" = ?', ['New name', id]],
    ['update "organizations" set "settings" = ? where "id" = ?', ['{}', id]],
    ['WITH doomed AS (SELECT 1) DELETE FROM sessions WHERE user_id = ?', [id]],
    // What the organization access check copies: memberships and two-factor enrolments, inserts included.
    ['insert into "memberships" ("created_at", "organization_id", "role", "user_id") values (?, ?, ?, ?)', [new Date(), id, 'member', id]],
    ['update "memberships" set "role" = ? where "organization_id" = ? and "user_id" = ?', ['viewer', id, id]],
    ['delete from "memberships" where "organization_id" = ? and "user_id" = ?', [id, id]],
    ['insert into "user_two_factor" ("user_id", "secret") values (?, ?) on conflict ("user_id") do update set "secret" = excluded."secret"', [id, 'sealed']],
    ['update "user_two_factor" set "enabled_at" = ? where "user_id" = ?', [new Date(), id]],
  ])('%s names its ids', (sql, bindings) => {
    expect([...new Set(idsOfAuthWrite({ sql, bindings }))]).toEqual([id]);
  });

  test('a write that names no id evicts everything', () => {
    expect(idsOfAuthWrite({ sql: 'truncate "sessions" restart identity', bindings: [] })).toBeNull();
    expect(idsOfAuthWrite({ sql: 'delete from "users" where "email" = ?', bindings: ['a@example.com'] })).toBeNull();
  });

  test('reads and other tables are not writes to the session check', () => {
    expect(idsOfAuthWrite({ sql: 'select * from "sessions" where "id" = ?', bindings: [id] })).toBeUndefined();
    expect(idsOfAuthWrite({ sql: 'update "user_settings" set "x" = ? where "id" = ?', bindings: [1, id] })).toBeUndefined();
    expect(idsOfAuthWrite({ sql: 'insert into "sessions" ("id") values (?)', bindings: [id] })).toBeUndefined();
    expect(idsOfAuthWrite({ sql: 'insert into "memberships_archive" ("id") values (?)', bindings: [id] })).toBeUndefined();
    expect(idsOfAuthWrite({ sql: 'select * from "memberships" where "user_id" = ?', bindings: [id] })).toBeUndefined();
  });
});
