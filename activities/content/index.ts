import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ActivityDeps } from '../deps';
import { contentPrefix } from '../../lib/content/keys';
import { createVectorStore, type VectorStore } from '../../lib/vectors';
import { loadStepContext, type StepInput } from './context';
import { PermanentContentError } from './errors';
import { STEP_RUNNERS, type StepName } from './steps';

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
  const stepRow = (jobId: string, name: string) => db('content_processing_steps').where({ job_id: jobId, name });

  return {
    async contentJobStarted(input: { jobId: string }): Promise<void> {
      const [job] = await db('content_processing_jobs')
        .where({ id: input.jobId })
        .update({ status: 'running', started_at: db.fn.now() })
        .returning(['organization_id', 'content_id', 'version']);
      if (job) {
        await db('content')
          .where({ organization_id: job.organization_id, id: job.content_id, current_version: job.version })
          .update({ processing_status: 'processing' });
      }
    },

    async runContentStep(input: StepInput & { step: StepName }): Promise<{ state: StepState }> {
      const attempt = Context.current().info.attempt;
      await stepRow(input.jobId, input.step).update({ state: 'running', attempts: attempt, started_at: db.fn.now(), completed_at: null });
      try {
        const ctx = await loadStepContext(deps, vectors(), input);
        const result = await STEP_RUNNERS[input.step](ctx);
        const state: StepState = result.skipped ? 'skipped' : 'succeeded';
        await stepRow(input.jobId, input.step).update({
          state,
          error: result.skipped ?? null,
          output: JSON.stringify(result.output),
          completed_at: db.fn.now(),
        });
        return { state };
      } catch (err) {
        const permanent = err instanceof PermanentContentError;
        const message = (err as Error).message || String(err);
        const last = permanent || attempt >= input.maxAttempts;
        await stepRow(input.jobId, input.step).update({
          state: last ? 'failed' : 'retrying',
          error: message,
          ...(last ? { completed_at: db.fn.now() } : {}),
        });
        if (permanent) throw ApplicationFailure.nonRetryable(message, 'PermanentContentError');
        throw err;
      }
    },

    /** Records an outcome the step could not record itself (timed out, or skipped because a dependency failed). */
    async recordContentStepOutcome(input: { jobId: string; step: StepName; state: StepState; error: string | null }): Promise<void> {
      await stepRow(input.jobId, input.step).update({ state: input.state, error: input.error, completed_at: db.fn.now() });
    },

    async completeContentProcessing(input: { jobId: string }): Promise<{ status: 'succeeded' | 'failed' }> {
      return db.transaction(async (trx) => {
        const job = await trx('content_processing_jobs').where({ id: input.jobId }).first();
        if (!job) return { status: 'failed' as const };
        const steps = await trx('content_processing_steps').where({ job_id: input.jobId }).orderBy('position');
        const failed = steps.some((s: { state: string }) => s.state === 'failed');
        const status = failed ? ('failed' as const) : ('succeeded' as const);
        await trx('content_processing_jobs').where({ id: input.jobId }).update({ status, completed_at: trx.fn.now() });
        await trx('content')
          .where({ organization_id: job.organization_id, id: job.content_id, current_version: job.version })
          .update({ processing_status: failed ? 'failed' : 'processed' });
        const version = await trx('content_versions')
          .where({ organization_id: job.organization_id, content_id: job.content_id, version: job.version })
          .first('derived');
        await trx('outbox_events').insert({
          organization_id: job.organization_id,
          type: 'content.processed',
          payload: JSON.stringify({
            contentId: job.content_id,
            organizationID: job.organization_id,
            version: job.version,
            jobId: job.id,
            status: failed ? 'failed' : 'processed',
            steps: Object.fromEntries(steps.map((s: { name: string; state: string }) => [s.name, s.state])),
            bucket: deps.config.minio.bucket,
            derived: Object.fromEntries(
              Object.entries((version?.derived ?? {}) as Record<string, { key: string }>).map(([k, v]) => [k, v.key]),
            ),
          }),
        });
        return { status };
      });
    },

    /** The deletion workflow starts inside the deleting transaction: go on only once that has committed. */
    async confirmContentDeleted(input: { organizationId: string; contentId: string }): Promise<void> {
      const row = await db('content').where({ organization_id: input.organizationId, id: input.contentId }).first('id');
      if (row) throw new Error('content row still present (deleting transaction not committed yet)');
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

  };
}
