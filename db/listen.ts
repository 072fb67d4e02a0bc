/**
 * The parts of a pg connection that listen for PostgreSQL notices (`LISTEN`), as the modules that listen use them:
 * domain/runs/finishNotices.ts (a connection of the knex pool) and domain/auth/authChangeListener.ts (a raw one).
 */
export interface PgNotification {
  channel: string;
  payload?: string;
}

export interface ListenConnection {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error' | 'end', listener: (err?: unknown) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  removeAllListeners(event?: string): unknown;
  /** The socket, to `unref` a connection that must not keep a process alive. */
  connection?: { stream?: { unref?: () => void } };
}
