import { Client, type ClientConfig } from 'pg';
import type { SsrfGuard } from './ssrfGuard';

/**
 * A tenant's PostgreSQL connection string, turned into a driver configuration field by field. The string itself
 * never reaches `pg`: its parser takes `host`, `port`, `sslcert`, `sslkey`... from the query string (overriding the
 * host that was checked), reads Unix sockets from `host=/path`, `%2F...` hosts and `socket:` URLs, and fills
 * missing fields from the worker's own PG* environment. So:
 * - only `postgres://` / `postgresql://` URLs with a host name or IP address, a user and a database;
 * - the only query parameter is `sslmode` (`disable`, `require`, `verify-ca`, `verify-full`); file-reading TLS
 *   options and every other libpq parameter are refused by name;
 * - the host and port go through the outbound guard (public addresses, never the platform's own database or
 *   services), and the driver connects to the vetted address (no second resolution); TLS still checks the name;
 * - user, password and TLS are always given explicitly, so nothing falls back to PGUSER, PGPASSWORD, PGSSLMODE
 *   or ~/.pgpass of the worker.
 */
export class ConnectionStringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionStringError';
  }
}

export const ALLOWED_SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
type SslMode = (typeof ALLOWED_SSL_MODES)[number];

export interface ParsedPostgresUrl {
  hostname: string;
  port: number;
  user: string;
  password: string;
  database: string;
  sslMode: SslMode;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/i;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/i;

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ConnectionStringError(`the ${what} is not valid percent-encoding`);
  }
}

/** Parses and checks a connection string without any I/O. */
export function parsePostgresUrl(raw: string): ParsedPostgresUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConnectionStringError('not a postgres:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConnectionStringError(`scheme ${url.protocol.replace(/:$/, '')} is not allowed (postgres:// or postgresql:// only; no sockets)`);
  }
  // Non-special schemes keep the host as written: `%2Fvar%2Frun` (a socket path for pg) fails this check.
  const host = url.hostname;
  if (!host) throw new ConnectionStringError('the connection string has no host (Unix sockets are not allowed)');
  if (!IPV6_LITERAL.test(host) && !HOST_NAME.test(host)) {
    throw new ConnectionStringError('the host must be a host name or an IP address (Unix sockets are not allowed)');
  }
  const port = url.port ? Number(url.port) : 5432;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConnectionStringError('the port must be 1-65535');
  const user = decode(url.username, 'user name');
  if (!user) throw new ConnectionStringError('the connection string names no user');
  const database = decode(url.pathname.replace(/^\//, ''), 'database name');
  if (!database || database.includes('/')) throw new ConnectionStringError('the connection string names no database (postgres://user@host/database)');
  if (url.hash) throw new ConnectionStringError('a fragment (#...) is not allowed in a connection string');

  let sslMode: SslMode = 'disable';
  for (const [key, value] of url.searchParams) {
    if (key !== 'sslmode') {
      throw new ConnectionStringError(`query parameter "${key}" is not allowed (only sslmode=${ALLOWED_SSL_MODES.join('|')})`);
    }
    if (!(ALLOWED_SSL_MODES as readonly string[]).includes(value)) {
      throw new ConnectionStringError(`sslmode must be one of ${ALLOWED_SSL_MODES.join(', ')}`);
    }
    sslMode = value as SslMode;
  }
  return { hostname: host.replace(/^\[|\]$/g, ''), port, user, password: decode(url.password, 'password'), database, sslMode };
}

function tlsOptions(mode: SslMode, servername: string | undefined): ClientConfig['ssl'] {
  switch (mode) {
    case 'disable':
      return false;
    case 'require':
      return { rejectUnauthorized: false, ...(servername ? { servername } : {}) };
    case 'verify-ca':
      return { rejectUnauthorized: true, checkServerIdentity: () => undefined, ...(servername ? { servername } : {}) };
    case 'verify-full':
      return { rejectUnauthorized: true, ...(servername ? { servername } : {}) };
  }
}

/** Parses, vets (outbound guard: may resolve DNS) and answers a pg configuration pinned to the vetted address. */
export async function vettedPostgresConfig(raw: string, guard: SsrfGuard): Promise<ClientConfig> {
  const parsed = parsePostgresUrl(raw);
  const target = await guard.vetHost(parsed.hostname, parsed.port);
  const isName = !/^[0-9.]+$/.test(parsed.hostname) && !parsed.hostname.includes(':');
  const password = parsed.password;
  return {
    host: target.address,
    port: parsed.port,
    user: parsed.user,
    database: parsed.database,
    // A function, so an empty password stays empty instead of falling back to PGPASSWORD or ~/.pgpass.
    password: () => password,
    ssl: tlsOptions(parsed.sslMode, isName ? parsed.hostname : undefined),
  };
}

/**
 * An unconnected client for a tenant's database: the only place a `pg.Client` is made for a destination a tenant
 * named (lint forbids it elsewhere). `options` may set timeouts and the application name, never the target.
 *
 * The client comes with an 'error' listener for its whole life, `end()` included: pg emits 'error' when the server
 * drops the connection or sends a message out of turn, and an 'error' event nobody listens to throws out of the
 * event loop, ending the worker and every tenant's activities in it. The failure still reaches the caller: pg fails
 * the pending query, or the next one, with it; callers wanting the error itself add their own listener.
 */
export async function tenantPostgresClient(
  raw: string,
  guard: SsrfGuard,
  options: Pick<ClientConfig, 'connectionTimeoutMillis' | 'statement_timeout' | 'query_timeout' | 'application_name'>,
): Promise<Client> {
  const client = new Client({ ...options, ...(await vettedPostgresConfig(raw, guard)) });
  client.on('error', () => undefined);
  return client;
}

/**
 * Ends a tenant client: `end()` sends Terminate and waits for the server to close its side, which a hostile or
 * broken server never does, holding the activity (and its worker slot) until its time limit. After `graceMs` the
 * socket is destroyed instead.
 */
export async function endTenantClient(client: Client, graceMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = client.end().then(
    () => 'ended' as const,
    () => 'ended' as const,
  );
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  const outcome = await Promise.race([ended, late]);
  clearTimeout(timer);
  if (outcome === 'late') destroySocket(client);
}

/** Drops a client's connection at once: pg then fails its pending query and says 'error'. */
export function destroySocket(client: Client): void {
  // pg keeps its socket as `connection.stream` (not in its types).
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** The bytes a tenant's server has sent over one client's connection so far. */
export interface IncomingBytes {
  received(): number;
  /** True once the connection was destroyed for passing the limit. */
  exceeded(): boolean;
}

/**
 * Counts what a tenant's server sends and destroys the connection once it passes `limit` bytes. pg buffers each
 * protocol message whole before parsing it, so a server sending one enormous row (a field may be 1 GB), or an
 * endless stream of rows, would otherwise grow the shared worker's memory for as long as it sends. Counts from
 * before `connect()`, and follows the switch to TLS (pg then reads from a new stream and says 'sslconnect').
 */
export function meterIncomingBytes(client: Client, limit: number): IncomingBytes {
  // pg keeps its connection and socket as `connection` / `connection.stream` (not in its types).
  const connection = (client as unknown as { connection: NodeJS.EventEmitter & { stream: NodeJS.ReadableStream & { destroy(): void } } })
    .connection;
  let total = 0;
  let over = false;
  const count = (chunk: Buffer): void => {
    total += chunk.length;
    if (total > limit && !over) {
      over = true;
      connection.stream.destroy();
    }
  };
  let counted = connection.stream;
  counted.on('data', count);
  connection.on('sslconnect', () => {
    counted.removeListener('data', count); // the TLS stream's plain text is counted instead of its cipher text
    counted = connection.stream;
    counted.on('data', count);
  });
  return { received: () => total, exceeded: () => over };
}
