import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Writes one event to `outbox_events`. Pass the transaction of the change that causes the event: both commit or
 * neither does, and the dispatcher (workflows/triggers/events.ts) delivers it afterwards, however the writer ends.
 * Types and payloads: lib/events/catalog.ts (docs/events.md).
 */
export async function writeEvent(
  trx: Knex | Knex.Transaction,
  organizationId: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<string> {
  const id = randomUUID();
  await trx('outbox_events').insert({ id, organization_id: organizationId, type, payload: JSON.stringify(payload) });
  return id;
}

export interface OutboxEventRow {
  id: string;
  organization_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  dispatched_at: Date | null;
}

/** The envelope every consumer sees (event trigger mappings as `event`, webhook bodies). */
export function eventEnvelope(row: OutboxEventRow): Record<string, unknown> {
  return {
    id: row.id,
    type: row.type,
    organizationID: row.organization_id,
    timestamp: new Date(row.created_at).toISOString(),
    data: row.payload,
  };
}
