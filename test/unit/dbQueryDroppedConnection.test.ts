import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { ActivityDeps } from '../../activities/deps';
import dbQuery from '../../activities/tools/db_query';
import { NonRetryableToolError, type ToolContext } from '../../activities/tools/types';
import { loadConfig } from '../../lib/config';
import { outboundGuards } from '../../lib/net/outbound';
import { tenantPostgresClient } from '../../lib/net/postgresTarget';

/**
 * db_query against a tenant's PostgreSQL that misbehaves: a fake server speaking just enough of the v3 protocol
 * (startup, simple-query BEGIN/COMMIT/ROLLBACK, one statement read through a portal) drops the connection or sends an error out of
 * turn. pg reports that as an 'error' event on the client; with no listener it would end the worker process.
 */

/**
 * What the fake server does at each Execute of the statement's portal (after ParseComplete, BindComplete and the
 * RowDescription have gone out); `rowLimit` is the Execute's row count (0: all).
 */
type ExtendedQueryAnswer = (socket: Socket, rowLimit: number) => void | 'silent';

interface FakePostgres {
  url: string;
  /** Resolves when the client has sent Terminate (the tool's `client.end()`). */
  terminated: Promise<void>;
  close(): Promise<void>;
}

function backendMessage(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type, 'ascii'), length, body]);
}

const cString = (text: string): Buffer => Buffer.from(`${text}\0`, 'utf8');
const int16 = (n: number): Buffer => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

const readyForQuery = (status: 'I' | 'T'): Buffer => backendMessage('Z', Buffer.from(status, 'ascii'));
const commandComplete = (tag: string): Buffer => backendMessage('C', cString(tag));

/** One text column `n` of type int4 (oid 23). */
const rowDescription = (): Buffer =>
  backendMessage('T', Buffer.concat([int16(1), cString('n'), int32(0), int16(0), int32(23), int16(4), int32(-1), int16(0)]));
const dataRow = (value: string): Buffer => backendMessage('D', Buffer.concat([int16(1), int32(Buffer.byteLength(value)), Buffer.from(value)]));

const errorResponse = (severity: string, code: string, message: string): Buffer =>
  backendMessage('E', Buffer.concat([cString(`S${severity}`), cString(`V${severity}`), cString(`C${code}`), cString(`M${message}`), Buffer.from([0])]));

/** The answer of a well-behaved server to `SELECT n FROM ...` with the given values, a batch per Execute. */
function answerRows(values: string[]): ExtendedQueryAnswer {
  const sent = new WeakMap<Socket, number>();
  return (socket, rowLimit) => {
    const from = sent.get(socket) ?? 0;
    const to = rowLimit > 0 ? Math.min(values.length, from + rowLimit) : values.length;
    sent.set(socket, to);
    const more = to < values.length;
    socket.write(Buffer.concat([...values.slice(from, to).map(dataRow), more ? backendMessage('s') : commandComplete(`SELECT ${to}`)]));
  };
}

async function startFakePostgres(answerExtendedQuery: ExtendedQueryAnswer, afterTerminate?: (socket: Socket) => void): Promise<FakePostgres> {
  const sockets = new Set<Socket>();
  let reportTerminated: () => void = () => undefined;
  const terminated = new Promise<void>((resolve) => (reportTerminated = resolve));

  // Half-open allowed: the server's side stays open after the client's FIN unless the server ends it itself.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    let started = false;
    // After an answer says 'silent', only Terminate is heard.
    let silent = false;
    // Answers to Parse, Bind, Describe and Close wait for a Flush, Sync or Execute, as a server's output buffer does.
    const queued: Buffer[] = [];
    const flush = (): void => {
      if (queued.length > 0) socket.write(Buffer.concat(queued.splice(0)));
    };
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          // StartupMessage: length, protocol 3.0, parameters; no type byte.
          if (pending.length < 4 || pending.length < pending.readInt32BE(0)) return;
          pending = pending.subarray(pending.readInt32BE(0));
          started = true;
          socket.write(
            Buffer.concat([
              backendMessage('R', int32(0)), // AuthenticationOk
              backendMessage('S', Buffer.concat([cString('client_encoding'), cString('UTF8')])),
              backendMessage('S', Buffer.concat([cString('server_version'), cString('16.0')])),
              backendMessage('K', Buffer.concat([int32(4242), int32(1717)])), // BackendKeyData
              readyForQuery('I'),
            ]),
          );
          continue;
        }
        if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) return;
        const type = String.fromCharCode(pending[0]!);
        const body = pending.subarray(5, 1 + pending.readInt32BE(1));
        pending = pending.subarray(1 + pending.readInt32BE(1));
        if (silent && type !== 'X') continue;
        if (type === 'Q') {
          const sql = body.toString('utf8').replace(/\0$/, '');
          const command = sql.split(' ')[0]!;
          socket.write(Buffer.concat([commandComplete(command), readyForQuery(command === 'BEGIN' ? 'T' : 'I')]));
        } else if (type === 'P') {
          queued.push(backendMessage('1')); // ParseComplete
        } else if (type === 'B') {
          queued.push(backendMessage('2')); // BindComplete
        } else if (type === 'D') {
          queued.push(rowDescription());
        } else if (type === 'E') {
          flush();
          silent = answerExtendedQuery(socket, body.readInt32BE(body.indexOf(0) + 1)) === 'silent';
        } else if (type === 'C') {
          queued.push(backendMessage('3')); // CloseComplete
        } else if (type === 'H') {
          flush();
        } else if (type === 'S') {
          queued.push(readyForQuery('T'));
          flush();
        } else if (type === 'X') {
          reportTerminated();
          if (afterTerminate) afterTerminate(socket);
          else socket.end();
        }
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://tenant@127.0.0.1:${port}/warehouse`,
    terminated,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Loopback is refused to tools unless the operator allow-lists it (TOOLS_HTTP_ALLOWED_HOSTS), as the integration
// tests do for their tenant databases.
const env = { SERVICE_JWT_SECRET: 's'.repeat(32), TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1' };
const config = loadConfig(env);
const ctx: ToolContext = {
  organizationId: 'o',
  runId: 'r',
  nodeId: 'n',
  attempt: 1,
  idempotencyKey: 'r:n',
  deps: { config } as ActivityDeps,
  signal: new AbortController().signal,
  heartbeat: () => undefined,
};

const servers: FakePostgres[] = [];
async function fakePostgres(answerExtendedQuery: ExtendedQueryAnswer, afterTerminate?: (socket: Socket) => void): Promise<FakePostgres> {
  const server = await startFakePostgres(answerExtendedQuery, afterTerminate);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The worker is still there and working: a well-behaved database answers the next call. */
async function expectNextCallAnswered(): Promise<void> {
  const healthy = await fakePostgres(answerRows(['1', '2', '3']));
  await expect(dbQuery.execute({ connection_string: healthy.url, sql: 'SELECT n FROM t', max_rows: 2 }, ctx)).resolves.toEqual({
    rows: [{ n: 1 }, { n: 2 }],
    row_count: 2,
    truncated: true,
    fields: ['n'],
  });
}

describe('db_query when the tenant database drops the connection', () => {
  test('closed mid-query: the call fails with a retryable DB_CONNECTION_LOST, the process lives on', async () => {
    const server = await fakePostgres((socket) => void socket.destroy());
    const failure = dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t' }, ctx);
    await expect(failure).rejects.toMatchObject({ code: 'DB_CONNECTION_LOST', message: expect.stringContaining('connection was lost') });
    await expect(failure).rejects.not.toBeInstanceOf(NonRetryableToolError);
    await expectNextCallAnswered();
  });

  test('backend terminated by the SQL itself (FATAL 57P01, then close): DB_CONNECTION_LOST', async () => {
    const server = await fakePostgres((socket) => {
      socket.write(errorResponse('FATAL', '57P01', 'terminating connection due to administrator command'));
      socket.end();
    });
    await expect(
      dbQuery.execute({ connection_string: server.url, sql: 'SELECT pg_terminate_backend(pg_backend_pid())' }, ctx),
    ).rejects.toMatchObject({ code: 'DB_CONNECTION_LOST', message: expect.stringContaining('terminating connection due to administrator command') });
    await expectNextCallAnswered();
  });

  test('an error sent after the client has ended (answer to Terminate) is absorbed', async () => {
    const server = await fakePostgres(answerRows(['7']), (socket) => {
      socket.end(errorResponse('FATAL', '57P01', 'terminating connection due to administrator command'));
    });
    // `client.end()` waits for the server to close, so the call settles after the late message has been read.
    await expect(dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t' }, ctx)).resolves.toMatchObject({ rows: [{ n: 7 }], truncated: false });
    await server.terminated;
    await expectNextCallAnswered();
  });
});

describe('db_query when the tenant database never closes', () => {
  test('a server that keeps its side open after Terminate: the call still settles (the socket is destroyed)', async () => {
    // Neither ends nor answers: `client.end()` alone waits for ever (this test then times out).
    const server = await fakePostgres(answerRows(['5']), () => undefined);
    await expect(dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t' }, ctx)).resolves.toMatchObject({ rows: [{ n: 5 }] });
    await server.terminated;
    await expectNextCallAnswered();
  }, 10_000);
});

describe('db_query against a server that sends too much', () => {
  test('rows past max_rows are never sent: the portal is read a batch at a time', async () => {
    const limits: number[] = [];
    const rows = answerRows(Array.from({ length: 5000 }, (_, i) => String(i)));
    const server = await fakePostgres((socket, rowLimit) => {
      limits.push(rowLimit);
      rows(socket, rowLimit);
    });
    const out = await dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t', max_rows: 10 }, ctx);
    expect(out).toMatchObject({ row_count: 10, truncated: true });
    expect(out.rows).toHaveLength(10);
    // Before: one Execute for all rows (0), all 5,000 on the wire. Now 11 rows in all: the cap and one to tell.
    expect(limits).not.toContain(0);
    expect(limits.reduce((a, b) => a + b, 0)).toBe(11);
  });

  test('one endless row: the connection is dropped past twice the result cap, the call fails DB_RESULT_TOO_LARGE', async () => {
    const small = { ...ctx, deps: { config: loadConfig({ ...env, TOOLS_DB_MAX_RESULT_BYTES: String(1024 * 1024) }) } as ActivityDeps };
    let written = 0;
    const announced = 64 * 1024 * 1024;
    const server = await fakePostgres((socket) => {
      // A DataRow of one 64 MiB field, sent as fast as the client reads it.
      socket.write(Buffer.concat([Buffer.from('D'), int32(4 + 2 + 4 + announced), int16(1), int32(announced)]));
      const chunk = Buffer.alloc(64 * 1024, 0x78);
      const pump = (): void => {
        while (written < announced && !socket.destroyed) {
          written += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    await expect(dbQuery.execute({ connection_string: server.url, sql: 'SELECT repeat(...)' }, small)).rejects.toMatchObject({
      code: 'DB_RESULT_TOO_LARGE',
    });
    // Before: the whole 64 MiB row was buffered and returned. Socket buffers hold a few MiB beyond what was read.
    expect(written).toBeLessThan(16 * 1024 * 1024);
    await expectNextCallAnswered();
  }, 20_000);

  test('many rows of a known size: reading stops near the result cap, truncated', async () => {
    const small = { ...ctx, deps: { config: loadConfig({ ...env, TOOLS_DB_MAX_RESULT_BYTES: String(256 * 1024) }) } as ActivityDeps };
    const server = await fakePostgres(answerRows(Array.from({ length: 1000 }, () => '7'.repeat(8 * 1024))));
    const out = await dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t' }, small);
    expect(out.truncated).toBe(true);
    // 8 KiB rows against 256 KiB: about 32 rows; a batch may pass the cap once, never twice.
    expect(out.rows.length).toBeGreaterThanOrEqual(30);
    expect(out.rows.length).toBeLessThanOrEqual(64);
  });

  test('a server that stops answering mid-statement: the call ends at its timeout with the retryable DB_TIMEOUT', async () => {
    const server = await fakePostgres(() => undefined);
    const started = Date.now();
    const failure = dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t', timeout_ms: 300 }, ctx);
    await expect(failure).rejects.toMatchObject({ code: 'DB_TIMEOUT' });
    await expect(failure).rejects.not.toBeInstanceOf(NonRetryableToolError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('db_query against a server that sends what rows cannot hold', () => {
  test('COPY data (CopyOutResponse, CopyData): DB_UNREADABLE_RESULT, the process lives on', async () => {
    const server = await fakePostgres((socket) => {
      // CopyOutResponse: text format, one column; then a row of data, CopyDone and the command's end.
      socket.write(Buffer.concat([backendMessage('H', Buffer.concat([Buffer.from([0]), int16(1), int16(0)])), backendMessage('d', Buffer.from('1\n')), backendMessage('c'), commandComplete('COPY 1')]));
    });
    // Before: pg called the cursor's missing handleCopyData inside the socket's data handler, and the worker died.
    await expect(dbQuery.execute({ connection_string: server.url, sql: 'COPY (SELECT 1) TO STDOUT' }, ctx)).rejects.toMatchObject({ code: 'DB_UNREADABLE_RESULT' });
    await expectNextCallAnswered();
  });

  test('a row with more fields than its description: DB_UNREADABLE_RESULT, the process lives on', async () => {
    const server = await fakePostgres((socket) => {
      const twoFields = backendMessage('D', Buffer.concat([int16(2), int32(1), Buffer.from('1'), int32(1), Buffer.from('2')]));
      socket.write(Buffer.concat([twoFields, commandComplete('SELECT 1')]));
    });
    await expect(dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t' }, ctx)).rejects.toMatchObject({ code: 'DB_UNREADABLE_RESULT' });
    await expectNextCallAnswered();
  });

  test('silent after a full batch (Close and Sync never answered): the call ends at its timeout, DB_TIMEOUT', async () => {
    const rows = answerRows(['1', '2', '3']);
    const server = await fakePostgres((socket, rowLimit) => {
      rows(socket, rowLimit);
      return 'silent';
    });
    const started = Date.now();
    // max_rows 1: the first batch (2 rows) is full, so the cursor closes its portal and waits for an answer.
    await expect(dbQuery.execute({ connection_string: server.url, sql: 'SELECT n FROM t', max_rows: 1, timeout_ms: 300 }, ctx)).rejects.toMatchObject({
      code: 'DB_TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('tenant PostgreSQL clients', () => {
  test('are made with an error listener, so a caller that adds none cannot crash the worker', async () => {
    const client = await tenantPostgresClient('postgres://tenant@127.0.0.1:15432/warehouse', outboundGuards(config).tools, {});
    expect(() => client.emit('error', new Error('Connection terminated unexpectedly'))).not.toThrow();
  });
});
