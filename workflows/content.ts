import { ActivityFailure, ApplicationFailure, continueAsNew, getExternalWorkflowHandle, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { STEP_INPUTS, type ProcessingStep as Step } from '../lib/contentSteps';

/**
 * Content workflows. Processing runs one activity per step, in pipeline order; a step whose input step did not
 * succeed is skipped, the others still run, so one unreadable file fails its own steps and nothing else.
 * Deletion removes files and vectors after the record is gone, retrying until the storage answers.
 */

export interface ContentProcessingInput {
  jobId: string;
  organizationId: string;
  contentId: string;
  version: number;
  steps: Step[];
  maxAttempts: number;
  maxBytes: number;
  chunkSize: number;
  chunkOverlap: number;
}

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 20 },
});

function messageOf(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}

export async function contentProcessingWorkflow(input: ContentProcessingInput): Promise<{ status: 'succeeded' | 'failed' }> {
  const { runContentStep } = proxyActivities<Activities>({
    startToCloseTimeout: '10m',
    retry: {
      initialInterval: '1s',
      backoffCoefficient: 2,
      maximumInterval: '30s',
      maximumAttempts: input.maxAttempts,
      nonRetryableErrorTypes: ['PermanentContentError'],
    },
  });
  await bookkeeping.contentJobStarted({ jobId: input.jobId });
  const outcome: Partial<Record<Step, string>> = {};
  for (const step of input.steps) {
    const needs = STEP_INPUTS[step];
    if (needs && input.steps.includes(needs) && outcome[needs] !== 'succeeded') {
      outcome[step] = 'skipped';
      await bookkeeping.recordContentStepOutcome({
        jobId: input.jobId,
        step,
        state: 'skipped',
        error: `skipped: ${needs} ${outcome[needs] ?? 'did not run'}`,
      });
      continue;
    }
    try {
      const { state } = await runContentStep({
        jobId: input.jobId,
        organizationId: input.organizationId,
        contentId: input.contentId,
        version: input.version,
        maxAttempts: input.maxAttempts,
        maxBytes: input.maxBytes,
        chunkSize: input.chunkSize,
        chunkOverlap: input.chunkOverlap,
        step,
      });
      outcome[step] = state;
    } catch (err) {
      outcome[step] = 'failed';
      // The activity records its own failures; this covers timeouts and lost workers.
      await bookkeeping.recordContentStepOutcome({ jobId: input.jobId, step, state: 'failed', error: messageOf(err) });
    }
  }
  return bookkeeping.completeContentProcessing({ jobId: input.jobId });
}

export interface ContentDeletionInput {
  organizationId: string;
  contentId: string;
  processingWorkflowIds: string[];
}

const cleanup = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  // Unlimited attempts: storage outages delay the clean-up, they never abandon it.
  retry: { initialInterval: '1s', maximumInterval: '1m' },
});

const confirm = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '5s', maximumAttempts: 10 },
});

export async function contentDeletionWorkflow(input: ContentDeletionInput): Promise<{ objectsRemoved: number }> {
  try {
    await confirm.confirmContentDeleted({ organizationId: input.organizationId, contentId: input.contentId });
  } catch {
    // The deleting transaction rolled back: the content lives on, so nothing may be removed.
    throw ApplicationFailure.nonRetryable('content still exists; nothing deleted', 'ContentNotDeleted');
  }
  for (const workflowId of input.processingWorkflowIds) {
    try {
      await getExternalWorkflowHandle(workflowId).cancel();
    } catch {
      // Already finished.
    }
  }
  const { removed } = await cleanup.deleteContentObjects({ organizationId: input.organizationId, contentId: input.contentId });
  await cleanup.deleteContentVectors({ organizationId: input.organizationId, contentId: input.contentId });
  return { objectsRemoved: removed };
}

export interface ContentReembeddingInput {
  reembeddingId: string;
  organizationId: string;
}

/** Batches per execution before continuing as new: the history stays short however much content there is. */
const REEMBED_BATCHES_PER_RUN = 200;

/**
 * Re-embedding (domain/content/reembedding.ts): one batch activity after another until the operation's
 * selection is exhausted or it is cancelled (the activity reads its row). A provider outage is retried with backoff
 * for about an hour of attempts; after that the operation fails with the reason, and starting it again resumes
 * nothing lost: the content already moved is no longer selected.
 */
export async function contentReembeddingWorkflow(input: ContentReembeddingInput): Promise<{ finished: boolean }> {
  const { reembedContentBatch } = proxyActivities<Activities>({
    startToCloseTimeout: '10m',
    retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 15 },
  });
  for (let batch = 0; batch < REEMBED_BATCHES_PER_RUN; batch += 1) {
    try {
      if ((await reembedContentBatch(input)).finished) return { finished: true };
    } catch (err) {
      await bookkeeping.failContentReembedding({ ...input, message: messageOf(err) });
      return { finished: false };
    }
  }
  return continueAsNew<typeof contentReembeddingWorkflow>(input);
}
