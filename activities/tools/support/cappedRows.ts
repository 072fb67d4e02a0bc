import type { Client, Connection } from 'pg';
import Cursor from 'pg-cursor';
import { destroySocket, type IncomingBytes } from '../../../lib/net/postgresTarget';

export interface CappedRows {
  rows: Record<string, unknown>[];
  /** Rows returned, or for a statement without rows (a write without RETURNING) the rows it affected. */
  rowCount: number;
  /** Rows were left unread: past `maxRows`, or past `maxBytes` before the statement said it had finished. */
  truncated: boolean;
  fields: string[];
}

/** The statement cannot be read as rows: COPY, or rows that do not match their description (a broken server). */
export class UnreadableResultError extends Error {}

/**
 * pg-cursor, hardened against what a tenant's server may send. pg hands every message to the active query, and
 * pg-cursor has no handlers for COPY (`COPY ... TO STDOUT` in plain SQL, or CopyData sent out of turn: pg then
 * called a missing method inside the socket's data handler, an exception that ends the worker process) and no guard
 * around parsing a row (a DataRow with more fields than described threw the same way). Both are recorded here and
 * raised by `readCappedRows` after the batch.
 */
class GuardedCursor extends Cursor<Record<string, unknown>> {
  refusal: UnreadableResultError | null = null;

  handleCopyInResponse(connection: Connection): void {
    this.refusal ??= new UnreadableResultError('COPY is not supported by db_query: select rows instead');
    (connection as unknown as { sendCopyFail(message: string): void }).sendCopyFail('COPY is not supported by db_query');
  }

  handleCopyData(): void {
    this.refusal ??= new UnreadableResultError('COPY is not supported by db_query: select rows instead');
  }

  handleDataRow(message: unknown): void {
    if (this.refusal) return;
    try {
      (Cursor.prototype as unknown as { handleDataRow(this: Cursor, message: unknown): void }).handleDataRow.call(this, message);
    } catch (err) {
      this.refusal = new UnreadableResultError(`the database sent a row that does not match its columns (${(err as Error).message})`);
    }
  }
}

/** The first batch, before the size of a row is known: results of up to 3 rows take one round trip. */
const FIRST_BATCH = 4;
/** Each batch at most this many times the rows read so far, so rows that grow overshoot the byte cap by little. */
const GROWTH = 4;
const LARGEST_BATCH = 1000;

/**
 * Reads one statement's rows through a portal, a batch at a time, and stops fetching at `maxRows` rows or once
 * `maxBytes` have arrived since the statement was sent (counted by `incoming`, on the wire). The server produces
 * only what is fetched, so a `SELECT` of millions of rows costs the worker a batch, not the table. Each batch is
 * sized from the rows seen so far to end near `maxBytes`; a batch that overshoots far (rows far larger than those
 * before them) is what the connection's own byte meter is for. Every wait ends when the connection does (`gone`
 * rejects): pg-cursor's own never settle once the server goes silent after a statement ends.
 */
export async function readCappedRows(
  client: Client,
  statement: { text: string; values: unknown[] },
  limits: { maxRows: number; maxBytes: number },
  incoming: IncomingBytes,
  gone: Promise<never>,
): Promise<CappedRows> {
  const start = incoming.received();
  const cursor = client.query(new GuardedCursor(statement.text, statement.values));
  const rows: Record<string, unknown>[] = [];
  let fields: string[] = [];
  let affected: number | null = null;
  let batch = Math.min(FIRST_BATCH, limits.maxRows + 1);
  for (;;) {
    // A refused COPY IN ends with the server's error (57014, "COPY from stdin failed"): the refusal is the answer.
    const { rows: got, result } = await Promise.race([readBatch(cursor, batch), gone]).catch((err: unknown) => {
      throw refused(client, cursor) ?? err;
    });
    const refusal = refused(client, cursor);
    if (refusal) throw refusal;
    // The meter dropped the connection after this batch had arrived: the result is not returned.
    if (incoming.exceeded()) throw new Error('the result passed the connection byte limit');
    fields = (result.fields ?? []).map((f) => f.name);
    rows.push(...got);
    if (got.length < batch) {
      affected = result.rowCount ?? null;
      break; // the statement has finished (its portal is closed)
    }
    // One row past the cap tells a result of exactly `maxRows` rows from a longer one.
    if (rows.length > limits.maxRows) {
      return closed(cursor, gone, { rows: rows.slice(0, limits.maxRows), rowCount: limits.maxRows, truncated: true, fields });
    }
    const used = incoming.received() - start;
    if (used >= limits.maxBytes) return closed(cursor, gone, { rows, rowCount: rows.length, truncated: true, fields });
    const perRow = used / rows.length;
    batch = Math.max(
      1,
      Math.min(LARGEST_BATCH, GROWTH * rows.length, limits.maxRows + 1 - rows.length, Math.floor((limits.maxBytes - used) / perRow)),
    );
  }
  return { rows, rowCount: rows.length > 0 ? rows.length : (affected ?? 0), truncated: false, fields };
}

/** The cursor's refusal, if any; the connection is then dropped, not rolled back: what follows on it is not trusted. */
function refused(client: Client, cursor: GuardedCursor): UnreadableResultError | null {
  if (cursor.refusal) destroySocket(client);
  return cursor.refusal;
}

function readBatch(
  cursor: Cursor<Record<string, unknown>>,
  size: number,
): Promise<{ rows: Record<string, unknown>[]; result: { rowCount: number | null; fields?: { name: string }[] } }> {
  return new Promise((resolve, reject) => {
    cursor.read(size, (err, rows, result) => (err ? reject(err) : resolve({ rows, result })));
  });
}

/** Closes the portal (the rows not fetched are never produced) before the transaction goes on. */
async function closed(cursor: Cursor<Record<string, unknown>>, gone: Promise<never>, answer: CappedRows): Promise<CappedRows> {
  await Promise.race([cursor.close(), gone]);
  return answer;
}
