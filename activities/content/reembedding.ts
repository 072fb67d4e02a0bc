import type { ActivityDeps } from '../deps';
import * as q from '../../domain/content/reembeddingQueries';
import { contentExists } from '../../domain/content/queries';
import type { ReembeddingInput } from '../../domain/content/reembedding';
import { recordAudit } from '../../domain/audit/record';
import { PermanentContentError } from '../../lib/content/errors';
import type { VectorStore } from '../../lib/vectors';
import { loadStepContext } from './context';
import { STEP_RUNNERS } from './steps';

/** Contents per activity: each is one embed step (its chunks read from storage, embedded, written to LanceDB). */
export const REEMBED_BATCH = 20;

/**
 * Activities of the re-embedding workflow. A batch re-embeds the next contents after the operation's cursor with
 * the organization's current provider (the embed step of processing, on the content's current version), recording
 * after each content its outcome and the cursor past it in one statement: a batch retried after a crash resumes
 * after the last recorded content and counts each once. A content without chunks (never processed) is skipped; one
 * the embed step refuses for good is counted as failed with its message; a provider failure fails the batch, which
 * Temporal retries with backoff.
 */
export function createReembeddingActivities(deps: ActivityDeps, vectors: () => VectorStore) {
  const { db } = deps;

  /** Ends a running operation and audits it with its counts, in one transaction; nothing when it had already ended. */
  async function end(
    organizationId: string,
    id: string,
    status: 'succeeded' | 'failed',
    extra: (row: q.ReembeddingRow) => Record<string, unknown>,
    lastError?: string,
  ): Promise<void> {
    await db.transaction(async (trx) => {
      const ended = await q.finishReembedding(trx, id, status, lastError);
      if (!ended) return;
      await recordAudit(trx, {
        organizationId,
        actor: { type: 'system', id: ended.workflow_id },
        action: status === 'succeeded' ? 'content.reembedding_finished' : 'content.reembedding_failed',
        target: { type: 'content_reembedding', id },
        after: { done: ended.done, skipped: ended.skipped, failed: ended.failed, total: ended.total, ...extra(ended) },
      });
    });
  }

  return {
    async reembedContentBatch(input: ReembeddingInput): Promise<{ finished: boolean }> {
      const operation = await q.getReembedding(db, input.organizationId, input.reembeddingId);
      if (!operation || operation.status !== 'running') return { finished: true };
      const selection: q.Selection = { targetModel: operation.target_model, targetDimensions: operation.target_dimensions, fromModel: operation.from_model };
      const batch = await q.nextSelected(db, input.organizationId, selection, operation.cursor, REEMBED_BATCH);
      if (batch.length === 0) {
        await end(input.organizationId, operation.id, 'succeeded', (row) => ({ targetModel: row.target_model }));
        return { finished: true };
      }
      const c = deps.config.content;
      for (const content of batch) {
        const outcome = { done: 0, skipped: 0, failed: 0, lastError: null as string | null };
        try {
          const ctx = await loadStepContext(deps, vectors(), {
            jobId: operation.id,
            organizationId: input.organizationId,
            contentId: content.id,
            version: content.current_version,
            maxAttempts: c.processingMaxAttempts,
            maxBytes: c.processingMaxBytes,
            chunkSize: c.chunkSize,
            chunkOverlap: c.chunkOverlap,
          });
          const result = await STEP_RUNNERS.embed(ctx);
          if (result.skipped) outcome.skipped = 1;
          else outcome.done = 1;
        } catch (err) {
          if (!(err instanceof PermanentContentError)) throw err;
          // Deleted since the operation started: nothing to re-embed, not a failure.
          if (!(await contentExists(db, input.organizationId, content.id))) outcome.skipped = 1;
          else {
            outcome.failed = 1;
            outcome.lastError = `${content.id}: ${err.message}`;
          }
        }
        // Each content's outcome with the cursor past it, in one statement: a batch retried after a provider failure
        // resumes after the last recorded content, and nothing done is left uncounted (it is no longer selected).
        if (!(await q.recordBatch(db, operation.id, { cursor: content.id, ...outcome }))) return { finished: true };
      }
      return { finished: false };
    },

    /** The workflow gave up on a batch (its retries ran out): the operation fails with the reason. */
    async failContentReembedding(input: ReembeddingInput & { message: string }): Promise<void> {
      await end(input.organizationId, input.reembeddingId, 'failed', (row) => ({ error: row.last_error }), input.message.slice(0, 2000));
    },
  };
}
