import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';
import { AppError } from '../../lib/errors';
import { createJob, markJobFailedToStart, updateContent } from './queries';
import { PROCESSING_STEPS, type ProcessingStep } from '../../lib/contentSteps';
import { tenantPriority } from '../../lib/tenantPriority';

/** What the processing workflow receives (workflows/content.ts). Limits travel with the job. */
export interface ProcessingInput {
  jobId: string;
  organizationId: string;
  contentId: string;
  version: number;
  steps: ProcessingStep[];
  maxAttempts: number;
  maxBytes: number;
  chunkSize: number;
  chunkOverlap: number;
}

export function orderedSteps(steps: readonly ProcessingStep[] | undefined): ProcessingStep[] {
  const wanted = new Set(steps ?? PROCESSING_STEPS);
  return PROCESSING_STEPS.filter((s) => wanted.has(s));
}

export function processingWorkflowId(jobId: string): string {
  return `content-process-${jobId}`;
}

/** Creates the job rows inside the caller's transaction; returns the input to start once it commits. */
export async function createProcessingJob(
  deps: AppDeps,
  trx: Parameters<typeof createJob>[0],
  target: { organizationId: string; contentId: string; version: number },
  steps: ProcessingStep[],
  trigger: 'upload' | 'manual' | 'embed',
): Promise<ProcessingInput> {
  const jobId = randomUUID();
  await createJob(trx, { id: jobId, ...target, workflowId: processingWorkflowId(jobId), trigger }, steps);
  const c = deps.config.content;
  return {
    jobId,
    ...target,
    steps,
    maxAttempts: c.processingMaxAttempts,
    maxBytes: c.processingMaxBytes,
    chunkSize: c.chunkSize,
    chunkOverlap: Math.min(c.chunkOverlap, Math.floor(c.chunkSize / 2)),
  };
}

/**
 * Starts the workflow after the job rows are committed. If Temporal cannot be reached the job is marked failed
 * with the reason (visible at /status) and the caller may retry with POST /{id}/process.
 */
export async function startProcessing(deps: AppDeps, input: ProcessingInput, throwOnFailure = false): Promise<void> {
  try {
    await deps.temporal.workflow.start('contentProcessingWorkflow', {
      taskQueue: deps.config.temporal.taskQueue,
      workflowId: processingWorkflowId(input.jobId),
      args: [input],
      priority: tenantPriority(input.organizationId),
      // What Temporal Web shows of it (docs/operating.md#temporal-web)
      staticSummary: `Content processing · ${input.contentId} v${input.version} · ${input.steps.join(', ')}`,
      memo: { organizationId: input.organizationId, contentId: input.contentId, version: input.version, jobId: input.jobId },
    });
  } catch (err) {
    deps.logger.warn({ err, jobId: input.jobId }, 'content processing could not start');
    // The engine's own message names the platform's Temporal address; members read this text at /status.
    await markJobFailedToStart(deps.db, input.jobId, 'processing could not start: the workflow engine is unavailable; retry with POST /process');
    await updateContent(deps.db, input.organizationId, input.contentId, { processing_status: 'failed' });
    if (throwOnFailure) throw new AppError('SERVICE_UNAVAILABLE', 'processing could not be started, retry shortly');
  }
}
