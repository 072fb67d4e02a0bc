import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { Actor } from '../principals';
import type { AuditActor } from '../audit/record';
import { recordAudit } from '../audit/record';
import { AppError, notFound } from '../../lib/errors';
import { decodeCursorOrThrow, encodeCursor } from '../../lib/pagination';
import { tenantPriority } from '../../lib/tenantPriority';
import { embeddingProviderForOrganization } from './embeddingProvider';
import * as q from './reembeddingQueries';

/** What GET /api/v1/content/reembeddings/{id} shows. */
export interface ReembeddingView {
  id: string;
  status: q.ReembeddingRow['status'];
  targetModel: string;
  targetDimensions: number;
  fromModel: string | null;
  total: number;
  done: number;
  skipped: number;
  failed: number;
  remaining: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export function serializeReembedding(row: q.ReembeddingRow): ReembeddingView {
  return {
    id: row.id,
    status: row.status,
    targetModel: row.target_model,
    targetDimensions: row.target_dimensions,
    fromModel: row.from_model,
    total: row.total,
    done: row.done,
    skipped: row.skipped,
    failed: row.failed,
    remaining: Math.max(0, row.total - row.done - row.skipped - row.failed),
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

export function reembeddingWorkflowId(id: string): string {
  return `content-reembed-${id}`;
}

/** What the re-embedding workflow receives (workflows/content.ts). */
export interface ReembeddingInput {
  reembeddingId: string;
  organizationId: string;
}

/**
 * Re-embedding: an organization's content moved to its current embedding model in the background (after a switch
 * of provider, or from the lexical model to the semantic default), batch by batch in a Temporal workflow, resumable
 * (each batch records where it ended), with progress here, cancellable, audited at start and end. Search keeps
 * finding content of both models meanwhile (search.ts). One operation per organization at a time.
 */
export function createReembeddings(deps: Pick<AppDeps, 'db' | 'config' | 'box' | 'temporal' | 'logger'>) {
  const { db } = deps;

  return {
    async start(organizationId: string, actor: Actor | null, input: { model?: string }): Promise<ReembeddingView> {
      const provider = await embeddingProviderForOrganization(deps, organizationId);
      const selection: q.Selection = { targetModel: provider.model, targetDimensions: provider.dimensions, fromModel: input.model ?? null };
      if (input.model === provider.model) {
        throw new AppError('UNPROCESSABLE', `${input.model} is the organization's current model: nothing to re-embed`, [
          { path: 'body.model', problem: 'the current model' },
        ]);
      }
      const id = randomUUID();
      const auditActor: AuditActor = actor ?? { type: 'system', id: 'admin-cli' };
      const row = await db.transaction(async (trx) => {
        await q.lockReembeddings(trx, organizationId);
        const running = await q.runningReembedding(trx, organizationId);
        if (running) throw new AppError('CONFLICT', `a re-embedding of this organization is running (${running.id}): wait for it or cancel it`);
        const total = await q.countSelected(trx, organizationId, selection);
        const inserted = await q.insertReembedding(trx, {
          id,
          organization_id: organizationId,
          target_model: selection.targetModel,
          target_dimensions: selection.targetDimensions,
          from_model: selection.fromModel,
          total,
          workflow_id: reembeddingWorkflowId(id),
          created_by: actor?.type === 'user' ? actor.id : null,
          created_by_api_key_id: actor?.type === 'apiKey' ? actor.id : null,
        });
        await recordAudit(trx, {
          organizationId,
          actor: auditActor,
          action: 'content.reembedding_started',
          target: { type: 'content_reembedding', id },
          after: { targetModel: selection.targetModel, fromModel: selection.fromModel, total },
        });
        return inserted;
      });
      try {
        const workflowInput: ReembeddingInput = { reembeddingId: id, organizationId };
        await deps.temporal.workflow.start('contentReembeddingWorkflow', {
          taskQueue: deps.config.temporal.taskQueue,
          workflowId: row.workflow_id,
          args: [workflowInput],
          priority: tenantPriority(organizationId),
          staticSummary: `Content re-embedding · ${row.total} contents → ${row.target_model}`,
          memo: { organizationId, reembeddingId: id },
        });
      } catch (err) {
        deps.logger.warn({ err, reembeddingId: id }, 'content re-embedding could not start');
        await q.finishReembedding(db, id, 'failed', 'the workflow engine is unavailable; start the re-embedding again');
        throw new AppError('SERVICE_UNAVAILABLE', 'the re-embedding could not be started, retry shortly');
      }
      return serializeReembedding(row);
    },

    async get(organizationId: string, id: string): Promise<ReembeddingView> {
      const row = await q.getReembedding(db, organizationId, id);
      if (!row) throw notFound('re-embedding');
      return serializeReembedding(row);
    },

    async list(organizationId: string, query: { limit: number; cursor?: string }): Promise<{ data: ReembeddingView[]; nextCursor: string | null }> {
      const after = decodeCursorOrThrow(query.cursor, 'time');
      const rows = await q.listReembeddings(db, organizationId, query.limit + 1, after ? { createdAt: after.sort, id: after.id } : null);
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return {
        data: page.map(serializeReembedding),
        nextCursor: rows.length > query.limit && last ? encodeCursor({ sort: last.created_at.toISOString(), id: last.id }) : null,
      };
    },

    /** Stops a running operation before its next batch; what was re-embedded stays. */
    async cancel(organizationId: string, actor: Actor | null, id: string): Promise<ReembeddingView> {
      const row = await q.getReembedding(db, organizationId, id);
      if (!row) throw notFound('re-embedding');
      return db.transaction(async (trx) => {
        const cancelled = await q.finishReembedding(trx, id, 'cancelled');
        if (!cancelled) throw new AppError('INVALID_STATE', `the re-embedding has ended (${row.status})`);
        await recordAudit(trx, {
          organizationId,
          actor: actor ?? { type: 'system', id: 'admin-cli' },
          action: 'content.reembedding_cancelled',
          target: { type: 'content_reembedding', id },
          after: { done: cancelled.done, skipped: cancelled.skipped, failed: cancelled.failed, total: cancelled.total },
        });
        return serializeReembedding(cancelled);
      });
    },
  };
}

export type Reembeddings = ReturnType<typeof createReembeddings>;
