import type { Db } from '../../db/knex';
import type { StoredDefinition, WorkflowStatus } from '../../lib/dag/model';
import type { EncryptedSecret } from '../../lib/secrets';

/** All SQL of the triggers domain (secrets, receipts, webhook lookup). Every query is scoped by organization. */

import { isUuid } from '../../lib/ids';
export { isUuid };
export interface WorkflowWithCurrent {
  id: string;
  organization_id: string;
  status: WorkflowStatus;
  created_by: string | null;
  current_version: number;
  definition: StoredDefinition;
}

/** Workflows of the organization (with the given status) whose current version has a trigger of this type. */
export async function workflowsWithTrigger(db: Db, organizationId: string, type: string, status?: WorkflowStatus): Promise<WorkflowWithCurrent[]> {
  const q = db('workflows as w')
    .join('workflow_versions as v', function joinCurrent() {
      this.on('v.workflow_id', 'w.id').andOn('v.version', 'w.current_version');
    })
    .where('w.organization_id', organizationId)
    .whereRaw(`v.definition->'triggers' @> ?::jsonb`, [JSON.stringify([{ type }])])
    .select('w.id', 'w.organization_id', 'w.status', 'w.created_by', 'w.current_version', 'v.definition');
  if (status) q.andWhere('w.status', status);
  return q;
}

export async function findWorkflowWithCurrent(db: Db, organizationId: string, workflowId: string): Promise<WorkflowWithCurrent | null> {
  if (!isUuid(workflowId)) return null;
  const row = await db('workflows as w')
    .join('workflow_versions as v', function joinCurrent() {
      this.on('v.workflow_id', 'w.id').andOn('v.version', 'w.current_version');
    })
    .where({ 'w.organization_id': organizationId, 'w.id': workflowId })
    .first('w.id', 'w.organization_id', 'w.status', 'w.created_by', 'w.current_version', 'v.definition');
  return (row as WorkflowWithCurrent | undefined) ?? null;
}

export interface TriggerSecretRow {
  workflow_id: string;
  trigger_key: string;
  organization_id: string;
  secret_hash: string;
  secret_sealed: EncryptedSecret;
  created_by: string | null;
  created_at: Date;
}

export async function findSecret(db: Db, workflowId: string, triggerKey: string): Promise<TriggerSecretRow | null> {
  return ((await db('trigger_secrets').where({ workflow_id: workflowId, trigger_key: triggerKey }).first()) as TriggerSecretRow | undefined) ?? null;
}

export async function listSecrets(db: Db, organizationId: string, workflowId: string): Promise<TriggerSecretRow[]> {
  return db('trigger_secrets').where({ organization_id: organizationId, workflow_id: workflowId });
}

export async function upsertSecret(
  db: Db,
  values: { workflowId: string; triggerKey: string; organizationId: string; hash: string; sealed: EncryptedSecret; createdBy: string | null },
): Promise<void> {
  await db('trigger_secrets')
    .insert({
      workflow_id: values.workflowId,
      trigger_key: values.triggerKey,
      organization_id: values.organizationId,
      secret_hash: values.hash,
      secret_sealed: JSON.stringify(values.sealed),
      created_by: values.createdBy,
    })
    .onConflict(['workflow_id', 'trigger_key'])
    .merge({ secret_hash: values.hash, secret_sealed: JSON.stringify(values.sealed), created_by: values.createdBy, created_at: db.fn.now() });
}

export interface ReceiptRow {
  request_hash: string;
  run_id: string;
}

/** Claims a delivery key; null when claimed now, else the earlier receipt. Receipts older than 24 h are ignored. */
export async function claimReceipt(
  db: Db,
  values: { workflowId: string; triggerKey: string; deliveryKey: string; requestHash: string; runId: string },
): Promise<ReceiptRow | null> {
  const key = { workflow_id: values.workflowId, trigger_key: values.triggerKey, delivery_key: values.deliveryKey };
  // An expired receipt no longer protects its key.
  await db('webhook_receipts').where(key).andWhere('created_at', '<', db.raw("now() - interval '24 hours'")).delete();
  const inserted = await db('webhook_receipts')
    .insert({ ...key, request_hash: values.requestHash, run_id: values.runId })
    .onConflict(['workflow_id', 'trigger_key', 'delivery_key'])
    .ignore()
    .returning('run_id');
  if (inserted.length) return null;
  return ((await db('webhook_receipts').where(key).first('request_hash', 'run_id')) as ReceiptRow | undefined) ?? null;
}

export async function releaseReceipt(db: Db, values: { workflowId: string; triggerKey: string; deliveryKey: string }): Promise<void> {
  await db('webhook_receipts').where({ workflow_id: values.workflowId, trigger_key: values.triggerKey, delivery_key: values.deliveryKey }).delete();
}

/** Housekeeping, called now and then by the ingress. */
export async function purgeOldReceipts(db: Db): Promise<void> {
  await db('webhook_receipts').where('created_at', '<', db.raw("now() - interval '24 hours'")).delete();
}
