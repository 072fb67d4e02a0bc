import type { Db } from '../../db/knex';
import type { ListenConnection, PgNotification } from '../../db/listen';
import type { ChangeEvictedCache } from '../../lib/auth/changeEvictedCache';
import { isUuid } from '../../lib/ids';

/**
 * Keeps the process's caches of access rows current (lib/auth/changeEvictedCache.ts): the session check's
 * (sessionCheckCache.ts) and the organization access check's (api/organizations/access.ts). Every change to a
 * session, a user, an organization, a membership or a user's two-factor sign-in evicts the entries that copied it.
 *
 * - Other processes' writes (another API instance, the worker, an operator's SQL) arrive as PostgreSQL notices on
 *   `loom_auth_changed`, sent at the commit by triggers (migrations 1080 and 1090). One raw connection per process
 *   listens for all its caches, outside the knex pool, so it neither takes a pooled connection nor holds up the
 *   pool's shutdown.
 * - This process's own writes evict at once, before they are sent and again when answered: a logout answered 204
 *   is refused by the very next request of the same process, whatever the notice's timing. knex announces every
 *   query it sends (`query`, `query-response` events) with its SQL and bindings; a write to one of those tables
 *   evicts the entries its ids refer to, or all of them when it names no id.
 *
 * The caches serve entries only while the listening connection is up; when it breaks they forget everything and
 * read the database until listening again (retried with backoff).
 */
export const AUTH_CHANGED_CHANNEL = 'loom_auth_changed';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;
/** Tables a cached row copies, and the writes that change it: a new session or user changes no copy, a new
 * membership or two-factor enrolment does (a non-member's or a user's answer was cached without it). */
const WRITE_TO_AUTH_TABLE = new RegExp(
  [
    String.raw`\b(?:update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?"?(?:sessions|users|organizations|memberships|user_two_factor)"?(?=[\s;)]|$)`,
    String.raw`\binsert\s+into\s+"?(?:memberships|user_two_factor)"?(?=[\s;(]|$)`,
  ].join('|'),
  'i',
);

interface QueryEvent {
  sql?: string;
  bindings?: readonly unknown[];
}

/** What the listener needs of a cache. */
export type EvictedOnChange = Pick<ChangeEvictedCache<unknown>, 'evict' | 'setServing'>;

export interface AuthChangeListener {
  /** Keeps `cache` current from now on (it serves once the listener listens). */
  watch(cache: EvictedOnChange): void;
  /** Starts listening, once; later calls return at once. Never throws (a failure is retried in the background). */
  start(): void;
  close(): Promise<void>;
}

/** The ids a write names (session, user, organization ids...), or null when it names none (evict everything). */
export function idsOfAuthWrite(event: QueryEvent): string[] | null | undefined {
  if (!event.sql || !WRITE_TO_AUTH_TABLE.test(event.sql)) return undefined;
  const ids = (event.bindings ?? []).filter((b): b is string => typeof b === 'string' && isUuid(b));
  return ids.length ? ids : null;
}

export function createAuthChangeListener(db: Db, log: (err: unknown, message: string) => void): AuthChangeListener {
  const caches: EvictedOnChange[] = [];
  const cache: EvictedOnChange = {
    evict: (ids) => caches.forEach((c) => c.evict(ids)),
    setServing: (serving) => caches.forEach((c) => c.setServing(serving)),
  };
  let started = false;
  let closed = false;
  let connection: ListenConnection | null = null;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  const onQuery = (event: QueryEvent): void => {
    const ids = idsOfAuthWrite(event);
    if (ids !== undefined) cache.evict(ids);
  };

  // Once more when a write outside a transaction has been answered: a read that began between the eviction above and
  // the commit may have kept the row as it was (a transaction's writes are covered by the notice at its commit).
  const onQueryResponse = (_response: unknown, event: QueryEvent): void => onQuery(event);

  const onNotification = (message: PgNotification): void => {
    if (message.channel !== AUTH_CHANGED_CHANNEL || !message.payload) return;
    const id = message.payload.slice(message.payload.indexOf(':') + 1);
    cache.evict(isUuid(id) ? [id] : null);
  };

  function drop(held: ListenConnection): void {
    held.removeAllListeners('notification');
    held.removeAllListeners('end');
    // An error after we let go must not become an unhandled 'error' event.
    held.removeAllListeners('error');
    held.on('error', () => undefined);
    void db.client.destroyRawConnection(held).catch(() => undefined);
  }

  function onBroken(err?: unknown): void {
    const held = connection;
    connection = null;
    cache.setServing(false);
    if (held) drop(held);
    if (closed) return;
    log(err, 'access caches: listening for changes stopped; reading every session and access check from the database until it is back');
    scheduleRetry();
  }

  function scheduleRetry(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
  }

  async function connect(): Promise<void> {
    let held: ListenConnection | null = null;
    try {
      held = (await db.client.acquireRawConnection()) as ListenConnection;
      held.on('error', onBroken);
      held.on('end', onBroken);
      held.on('notification', onNotification);
      await held.query(`LISTEN ${AUTH_CHANGED_CHANNEL}`);
      if (closed) return drop(held);
      // A listening connection must never keep a process alive on its own.
      held.connection?.stream?.unref?.();
      connection = held;
      retryMs = RETRY_MIN_MS;
      // Changes made before LISTEN took effect were never cached: serving starts empty.
      cache.evict(null);
      cache.setServing(true);
    } catch (err) {
      if (held) drop(held);
      if (closed) return;
      log(err, 'access caches: cannot listen for changes; retrying');
      scheduleRetry();
    }
  }

  return {
    watch(added) {
      caches.push(added);
      added.setServing(connection !== null);
    },
    start() {
      if (started || closed) return;
      started = true;
      db.on('query', onQuery);
      db.on('query-response', onQueryResponse);
      void connect();
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      db.removeListener('query', onQuery);
      db.removeListener('query-response', onQueryResponse);
      cache.setServing(false);
      const held = connection;
      connection = null;
      if (held) drop(held);
    },
  };
}
