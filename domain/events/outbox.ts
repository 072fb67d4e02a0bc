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

/** How long a derived event id stands for its first event (the Idempotency-Key lifetime, docs/conventions.md). */
const DERIVED_ID_WINDOW_MS = 24 * 3600_000;

/**
 * Writes an event whose id the caller derived from the request (a client's Idempotency-Key and the request itself),
 * so a request repeated after a crash (the API died between this commit and storing its response, and the key's
 * lease lapsed) finds the event of its first attempt instead of recording a second one, which would start every
 * matching run twice. Past the key's lifetime the same key is a new request and gets a new event.
 */
export async function writeEventOnce(
  trx: Knex | Knex.Transaction,
  derivedId: string,
  organizationId: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<string> {
  const inserted = await trx('outbox_events')
    .insert({ id: derivedId, organization_id: organizationId, type, payload: JSON.stringify(payload) })
    .onConflict('id')
    .ignore()
    .returning('id');
  if (inserted.length) return derivedId;
  const first = (await trx('outbox_events').where({ id: derivedId }).first('organization_id', 'created_at')) as
    | { organization_id: string | null; created_at: Date }
    | undefined;
  if (first && first.organization_id === organizationId && Date.now() - new Date(first.created_at).getTime() < DERIVED_ID_WINDOW_MS) return derivedId;
  return writeEvent(trx, organizationId, type, payload);
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
