import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/**
 * A check, for tests, of two rules (docs/conventions.md#transactions): no code path takes a second pool connection
 * while its transaction is open, and no transaction waits for the network (mail, Temporal, object storage).
 * Either breaks tenant isolation of the database pool: a transaction that holds a connection (and row locks) and
 * then waits for a second connection deadlocks with its peers once the pool is full, and one that waits for SMTP or
 * Temporal holds its connection for as long as they take.
 *
 * `guardTransactions(db, report)` marks the async context of every `db.transaction(callback)` while the callback
 * runs (AsyncLocalStorage); a query through `db` (rather than the transaction) in that context, a nested
 * `db.transaction`, or a `checkNoOpenTransaction(what)` call reports a violation. `report` may throw, which fails
 * the offending call. Not for production: AsyncLocalStorage costs a share of every request's CPU
 * (docs/conventions.md#logging), so only the test stack installs it.
 */

interface OpenTransaction {
  open: boolean;
}

const context = new AsyncLocalStorage<OpenTransaction>();
let reporter: ((message: string) => void) | null = null;

function violation(message: string): void {
  reporter?.(`${message}\n    at ${new Error().stack?.split('\n').slice(3, 9).join('\n    at ').replace(/^\s+at\s+/gm, '') ?? ''}`);
}

/** Reports when called inside an open transaction's callback: `what` is network I/O that must wait for the commit. */
export function checkNoOpenTransaction(what: string): void {
  if (context.getStore()?.open) violation(`${what} inside an open transaction`);
}

type TransactionFn = (handler?: unknown, config?: unknown) => unknown;

export function guardTransactions(db: Knex, report: (message: string) => void): void {
  reporter = report;
  const client = db.client as { acquireConnection: () => Promise<unknown>; __transactionGuard?: true };
  if (client.__transactionGuard) return;
  client.__transactionGuard = true;
  // Queries through the transaction use the transaction's own client (knex makeTxClient), not this one.
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () => {
    if (context.getStore()?.open) violation('a second pool connection (a query through db, not trx) inside an open transaction');
    return acquire();
  };
  // `db.transaction` is a read-only property that calls `db.context.transaction`: that one is replaced.
  const holder = (db as unknown as { context: { transaction: TransactionFn } }).context;
  const transaction = holder.transaction.bind(holder) as TransactionFn;
  holder.transaction = (handler?: unknown, config?: unknown) => {
    if (typeof handler !== 'function') return transaction(handler, config);
    if (context.getStore()?.open) violation('a nested db.transaction inside an open transaction');
    const state: OpenTransaction = { open: false };
    const run = handler as (trx: Knex.Transaction) => unknown;
    return context.run(state, () =>
      transaction(async (trx: Knex.Transaction) => {
        state.open = true;
        try {
          return await run(trx);
        } finally {
          state.open = false;
        }
      }, config),
    );
  };
}
