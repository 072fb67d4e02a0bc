import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { getOutboxEventOrigin, insertOutboxEvent, insertOutboxEventIfAbsent, type OutboxEventRow } from './queries';

export type { OutboxEventRow } from './queries';

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
  await insertOutboxEvent(trx, { id, organizationId, type, payload });
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
  if (await insertOutboxEventIfAbsent(trx, { id: derivedId, organizationId, type, payload })) return derivedId;
  const first = await getOutboxEventOrigin(trx, derivedId);
  if (first && first.organization_id === organizationId && Date.now() - new Date(first.created_at).getTime() < DERIVED_ID_WINDOW_MS) return derivedId;
  return writeEvent(trx, organizationId, type, payload);
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
