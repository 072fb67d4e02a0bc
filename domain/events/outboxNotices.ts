import type { Db } from '../../db/knex';
import type { ListenConnection, PgNotification } from '../../db/listen';

/**
 * Notices of new outbox events (channel `loom_outbox_event`, migration 1220), for the dispatcher's wait between
 * polls. One pooled connection listens while the dispatching activity runs (one per task queue) and is given back
 * when it ends. A notice can be missed (the connection broke): the dispatcher still polls every interval.
 */
export const OUTBOX_EVENT_CHANNEL = 'loom_outbox_event';

export interface OutboxNotices {
  /** Resolves at the next notice or after `ms`, whichever is first (at once when a notice came since the last wait). */
  wait(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Listens; null when the connection cannot listen (the caller polls alone). */
export async function listenForOutboxEvents(db: Db): Promise<OutboxNotices | null> {
  let held: ListenConnection;
  try {
    held = (await db.client.acquireConnection()) as ListenConnection;
  } catch {
    return null;
  }
  let pending = false;
  let wake: (() => void) | null = null;
  const onNotification = (message: PgNotification): void => {
    if (message.channel !== OUTBOX_EVENT_CHANNEL) return;
    pending = true;
    wake?.();
  };
  try {
    await held.query(`LISTEN ${OUTBOX_EVENT_CHANNEL}`);
  } catch {
    await db.client.releaseConnection(held).catch(() => undefined);
    return null;
  }
  held.on('notification', onNotification);
  return {
    wait(ms) {
      if (pending) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done(): void {
          clearTimeout(timer);
          wake = null;
          pending = false;
          resolve();
        }
        wake = done;
      });
    },
    async close() {
      held.removeListener('notification', onNotification);
      await held.query(`UNLISTEN ${OUTBOX_EVENT_CHANNEL}`).catch(() => undefined);
      await db.client.releaseConnection(held).catch(() => undefined);
    },
  };
}
