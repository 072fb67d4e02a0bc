import { z } from 'zod';
import type { Client } from 'pg';
import { readCappedRows, UnreadableResultError, type CappedRows } from './support/cappedRows';
import { orgIntegration } from './support/integrations';
import { retryable, toolGuard } from './support/net';
import { ConnectionStringError, destroySocket, endTenantClient, meterIncomingBytes, tenantPostgresClient } from '../../lib/net/postgresTarget';
import { SsrfRefusedError } from '../../lib/net/ssrfGuard';
import { defineTool, NonRetryableToolError, type ToolContext } from './types';

const input = z.strictObject({
  sql: z.string().min(1).max(100_000),
  params: z.array(z.unknown()).max(1000).optional(),
  connection_string: z.string().regex(/^postgres(ql)?:\/\//).max(2048).optional(),
  integration: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,49}$/).optional(),
  read_only: z.boolean().optional(),
  max_rows: z.int().min(1).max(100_000).optional(),
  timeout_ms: z.int().min(100).max(600_000).optional(),
});
type DbQueryInput = z.input<typeof input>;

/**
 * A parameterised query against an organization's PostgreSQL: the connection string is given in the node config
 * or taken from the organization's integration settings (`integration: "<name>"`, secret `connectionString`). Runs
 * in a READ ONLY transaction unless `read_only: false`, with a statement timeout and a row cap, over the extended
 * protocol (one statement, values never spliced into SQL). The database host goes through the SSRF guard.
 */
async function connectionString(input: DbQueryInput, ctx: ToolContext): Promise<string> {
  if (input.connection_string) return input.connection_string;
  const name = input.integration ?? 'postgres';
  const integration = await orgIntegration(ctx.deps, ctx.organizationId, name);
  const value = integration?.secrets.connectionString ?? integration?.config.connectionString;
  if (!value) {
    throw new NonRetryableToolError(
      'DB_NOT_CONFIGURED',
      `no connection string: give connection_string or configure the integration "${name}" (secret connectionString)`,
    );
  }
  return value;
}

/** Startup, BEGIN and COMMIT: what the server sends besides rows, with room to spare. */
const CONNECTION_OVERHEAD_BYTES = 64 * 1024;

/** Socket errors name the address connected to (`connect ECONNREFUSED 10.1.2.3:5432`): keep their code, not the address. */
function withoutAddress(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code && /^E[A-Z]+$/.test(e.code) ? e.code : (e.message ?? 'no detail');
}

export default defineTool({
  id: 'db_query',
  name: 'Database query',
  category: 'database',
  description:
    'Runs one parameterised SQL statement ($1, $2... with `params`) on a PostgreSQL database of the organization. ' +
    'Read-only by default; statement timeout and row cap from configuration (lower values may be given). Rows ' +
    'beyond the row cap or the result size cap are not fetched and `truncated` is true; `row_count` counts the rows ' +
    'returned, or those a write without RETURNING affected.',
  input,
  output: z.object({
    rows: z.array(z.record(z.string(), z.unknown())),
    row_count: z.int(),
    truncated: z.boolean(),
    fields: z.array(z.string()).optional(),
  }),
  sideEffect: 'at_least_once',
  // The password (or user) of the connection string; a whole connection string kept secret is an integration's
  // `connectionString` secret (`integration`), never spliced in where its host or parameters could be echoed.
  secretFields: ['connection_string:userinfo'],
  async execute(input, ctx) {
    const limits = ctx.deps.config.tools.db;
    const maxRows = Math.min(input.max_rows ?? limits.maxRows, limits.maxRows);
    const timeoutMs = Math.min(input.timeout_ms ?? limits.statementTimeoutMs, limits.statementTimeoutMs);
    const readOnly = input.read_only ?? true;
    let client: Client;
    try {
      client = await tenantPostgresClient(await connectionString(input, ctx), toolGuard(ctx.deps), {
        connectionTimeoutMillis: Math.min(timeoutMs, 10_000),
        statement_timeout: timeoutMs,
        application_name: `loom-workflow-${ctx.runId}`.slice(0, 60),
      });
    } catch (err) {
      if (err instanceof NonRetryableToolError) throw err;
      if (err instanceof ConnectionStringError) throw new NonRetryableToolError('INVALID_CONNECTION_STRING', err.message);
      if (err instanceof SsrfRefusedError) throw new NonRetryableToolError('URL_REFUSED', err.message);
      throw retryable('DNS_FAILED', (err as Error).message);
    }
    // Rows are fetched up to maxResultBytes; a batch may overshoot it by one more (a row's size is learnt as it comes).
    const incoming = meterIncomingBytes(client, 2 * limits.maxResultBytes + CONNECTION_OVERHEAD_BYTES);
    // pg reports a dropped connection (server gone, backend terminated) as an 'error' event and fails the pending
    // or next query with it; remembering the event tells a lost connection from an error in the tenant's SQL.
    let connectionLost = false;
    client.on('error', () => {
      connectionLost = true;
    });
    const abort = (): void => void endTenantClient(client);
    ctx.signal?.addEventListener('abort', abort);
    // Rejects when the connection ends: the reads wait on it too (cappedRows.ts).
    const gone = new Promise<never>((_, reject) => client.once('end', () => reject(new Error('the database connection was closed'))));
    gone.catch(() => undefined);
    let timedOut = false;
    let deadline: NodeJS.Timeout | undefined;
    try {
      try {
        await client.connect();
      } catch (err) {
        throw retryable('DB_CONNECTION_FAILED', `cannot connect to the database (${withoutAddress(err)})`);
      }
      // The server enforces statement_timeout; this bounds a server that stops answering altogether.
      deadline = setTimeout(() => {
        timedOut = true;
        destroySocket(client);
      }, timeoutMs + 1000);
      let result: CappedRows;
      try {
        await client.query(readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
        // Bind takes exactly one statement, and values travel apart from the SQL.
        result = await readCappedRows(client, { text: input.sql, values: input.params ?? [] }, { maxRows, maxBytes: limits.maxResultBytes }, incoming, gone);
        await client.query('COMMIT');
      } catch (err) {
        // Settles only once the connection has answered or closed, so a closing connection has said so by then.
        await client.query('ROLLBACK').catch(() => undefined);
        if (incoming.exceeded()) {
          throw new NonRetryableToolError(
            'DB_RESULT_TOO_LARGE',
            `the database sent more than ${2 * limits.maxResultBytes} bytes of rows (TOOLS_DB_MAX_RESULT_BYTES is ` +
              `${limits.maxResultBytes}); nothing was committed. Select fewer or narrower rows`,
          );
        }
        if (timedOut) throw retryable('DB_TIMEOUT', `the database did not answer within ${timeoutMs + 1000} ms`);
        if (err instanceof UnreadableResultError) throw new NonRetryableToolError('DB_UNREADABLE_RESULT', err.message);
        if (connectionLost) throw retryable('DB_CONNECTION_LOST', `the database connection was lost (${withoutAddress(err)})`);
        const e = err as { code?: string; message?: string };
        // 57014 query_canceled (timeout), 40001/40P01 serialization/deadlock: worth a retry; others are the query's fault.
        if (e.code === '57014' || e.code === '40001' || e.code === '40P01') throw retryable(`DB_${e.code}`, e.message ?? 'query failed');
        throw new NonRetryableToolError(e.code === '25006' ? 'DB_READ_ONLY' : 'DB_QUERY_FAILED', e.message ?? String(err));
      }
      return {
        rows: JSON.parse(JSON.stringify(result.rows)) as Record<string, unknown>[],
        row_count: result.rowCount,
        truncated: result.truncated,
        fields: result.fields,
      };
    } finally {
      clearTimeout(deadline);
      ctx.signal?.removeEventListener('abort', abort);
      await endTenantClient(client);
    }
  },
});
