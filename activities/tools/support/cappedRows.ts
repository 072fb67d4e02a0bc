import type { Client } from 'pg';
import Cursor from 'pg-cursor';
import type { IncomingBytes } from '../../../lib/net/postgresTarget';

export interface CappedRows {
  rows: Record<string, unknown>[];
  /** Rows returned, or for a statement without rows (a write without RETURNING) the rows it affected. */
  rowCount: number;
  /** Rows were left unread: past `maxRows`, or past `maxBytes` before the statement said it had finished. */
  truncated: boolean;
  fields: string[];
}

/**
 * The first batch, before the size of a row is known: small results still take one round trip, and ten rows of up
 * to a fifth of the result cap each stay within the connection's limit (twice the cap).
 */
const FIRST_BATCH = 10;
const LARGEST_BATCH = 1000;

/**
 * Reads one statement's rows through a portal, a batch at a time, and stops fetching at `maxRows` rows or once
 * `maxBytes` have arrived since the statement was sent (counted by `incoming`, on the wire). The server produces
 * only what is fetched, so a `SELECT` of millions of rows costs the worker a batch, not the table. Each batch is
 * sized from the rows seen so far to end near `maxBytes`; a batch that overshoots far (one enormous row) is what
 * the connection's own byte meter is for.
 */
export async function readCappedRows(
  client: Client,
  statement: { text: string; values: unknown[] },
  limits: { maxRows: number; maxBytes: number },
  incoming: IncomingBytes,
): Promise<CappedRows> {
  const start = incoming.received();
  const cursor = client.query(new Cursor<Record<string, unknown>>(statement.text, statement.values));
  const rows: Record<string, unknown>[] = [];
  let fields: string[] = [];
  let affected: number | null = null;
  let batch = Math.min(FIRST_BATCH, limits.maxRows + 1);
  for (;;) {
    const { rows: got, result } = await readBatch(cursor, batch);
    fields = (result.fields ?? []).map((f) => f.name);
    rows.push(...got);
    if (got.length < batch) {
      affected = result.rowCount ?? null;
      break; // the statement has finished (its portal is closed)
    }
    // One row past the cap tells a result of exactly `maxRows` rows from a longer one.
    if (rows.length > limits.maxRows) return closed(cursor, { rows: rows.slice(0, limits.maxRows), rowCount: limits.maxRows, truncated: true, fields });
    const used = incoming.received() - start;
    if (used >= limits.maxBytes) return closed(cursor, { rows, rowCount: rows.length, truncated: true, fields });
    const perRow = used / rows.length;
    batch = Math.max(1, Math.min(LARGEST_BATCH, limits.maxRows + 1 - rows.length, Math.floor((limits.maxBytes - used) / perRow)));
  }
  return { rows, rowCount: rows.length > 0 ? rows.length : (affected ?? 0), truncated: false, fields };
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
async function closed(cursor: Cursor<Record<string, unknown>>, answer: CappedRows): Promise<CappedRows> {
  await cursor.close();
  return answer;
}
