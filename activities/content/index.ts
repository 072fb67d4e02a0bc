import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ActivityDeps } from '../deps';
import * as q from '../../domain/content/queries';
import { insertOutboxEvent } from '../../domain/events/queries';
import { contentPrefix } from '../../lib/content/keys';
import { createVectorStore, type VectorStore } from '../../lib/vectors';
import { loadStepContext, type StepInput } from './context';
import { PermanentContentError } from '../../lib/content/errors';
import type { ProcessingStep } from '../../lib/contentSteps';
import { STEP_RUNNERS } from './steps';
import { createReembeddingActivities } from './reembedding';

/**
 * Activities of the content workflows (workflows/content.ts): one generic step runner that keeps the step's row
 * (state, attempts, error, output) up to date, the job's bookkeeping with the `content.processed` event, and the
 * clean-up after deletion.
 */
export type StepState = 'succeeded' | 'failed' | 'skipped';

export function createContentActivities(deps: ActivityDeps) {
  const { db } = deps;
  let vectorStore: VectorStore | null = null;
  const vectors = (): VectorStore => (vectorStore ??= createVectorStore(deps.config.content, deps.config.minio));

  return {
    async contentJobStarted(input: { jobId: string }): Promise<void> {
      const version = await q.markJobRunning(db, input.jobId);
      if (version) await q.setProcessingStatusOfVersion(db, version, 'processing');
    },

    async runContentStep(input: StepInput & { step: ProcessingStep }): Promise<{ state: StepState }> {
      const attempt = Context.current().info.attempt;
      await q.startStepAttempt(db, input.jobId, input.step, attempt);
      try {
        const ctx = await loadStepContext(deps, vectors(), input);
        const result = await STEP_RUNNERS[input.step](ctx);
        const state: StepState = result.skipped ? 'skipped' : 'succeeded';
        await q.finishStep(db, input.jobId, input.step, { state, error: result.skipped ?? null, output: JSON.stringify(result.output) });
        return { state };
      } catch (err) {
        const permanent = err instanceof PermanentContentError;
        const message = (err as Error).message || String(err);
        const last = permanent || attempt >= input.maxAttempts;
        // A coded cause (PDF_ENCRYPTED, PDF_RENDER_TIMEOUT...) is shown at /status as the step's output.errorCode.
        const code = permanent ? err.code : undefined;
        const output = code ? { output: JSON.stringify({ errorCode: code }) } : {};
        if (last) await q.finishStep(db, input.jobId, input.step, { state: 'failed', error: message, ...output });
        else await q.markStepRetrying(db, input.jobId, input.step, message);
        if (permanent) throw ApplicationFailure.nonRetryable(message, 'PermanentContentError');
        throw err;
      }
    },

    /** Records an outcome the step could not record itself (timed out, or skipped because a dependency failed). */
    async recordContentStepOutcome(input: { jobId: string; step: ProcessingStep; state: StepState; error: string | null }): Promise<void> {
      await q.finishStep(db, input.jobId, input.step, { state: input.state, error: input.error });
    },

    async completeContentProcessing(input: { jobId: string }): Promise<{ status: 'succeeded' | 'failed' }> {
      return db.transaction(async (trx) => {
        const job = await q.getJobById(trx, input.jobId);
        if (!job) return { status: 'failed' as const };
        const steps = await q.jobSteps(trx, input.jobId);
        const failed = steps.some((s) => s.state === 'failed');
        const status = failed ? ('failed' as const) : ('succeeded' as const);
        await q.finishJob(trx, input.jobId, status);
        const processed = { organizationId: job.organization_id, contentId: job.content_id, version: job.version };
        await q.setProcessingStatusOfVersion(trx, processed, failed ? 'failed' : 'processed');
        const version = await q.getVersion(trx, job.organization_id, job.content_id, job.version);
        await insertOutboxEvent(trx, {
          organizationId: job.organization_id,
          type: 'content.processed',
          payload: {
            contentId: job.content_id,
            organizationID: job.organization_id,
            version: job.version,
            jobId: job.id,
            status: failed ? 'failed' : 'processed',
            steps: Object.fromEntries(steps.map((s) => [s.name, s.state])),
            bucket: deps.config.minio.bucket,
            derived: Object.fromEntries(Object.entries(version?.derived ?? {}).map(([k, v]) => [k, v.key])),
          },
        });
        return { status };
      });
    },

    /** The deletion workflow starts inside the deleting transaction: go on only once that has committed. */
    async confirmContentDeleted(input: { organizationId: string; contentId: string }): Promise<void> {
      if (await q.contentExists(db, input.organizationId, input.contentId)) throw new Error('content row still present (deleting transaction not committed yet)');
    },

    async deleteContentObjects(input: { organizationId: string; contentId: string }): Promise<{ removed: number }> {
      const bucket = deps.config.minio.bucket;
      const names: string[] = [];
      for await (const item of deps.storage.listObjectsV2(bucket, contentPrefix(input.organizationId, input.contentId), true)) {
        if (item.name) names.push(item.name);
      }
      for (let i = 0; i < names.length; i += 1000) await deps.storage.removeObjects(bucket, names.slice(i, i + 1000));
      return { removed: names.length };
    },

    async deleteContentVectors(input: { organizationId: string; contentId: string }): Promise<void> {
      await vectors().deleteContent(input.organizationId, input.contentId);
    },

    ...createReembeddingActivities(deps, vectors),

  };
}
