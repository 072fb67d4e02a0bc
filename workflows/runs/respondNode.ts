import { proxyActivities } from '@temporalio/workflow';
import type { RespondActivities } from '../../activities/runs/respond';
import type { EvalContext } from '../../lib/runs/types';
import type { ExecEnv, NodeOutcome } from './execute';
import type { RespondConfig } from './graph';

const responses = proxyActivities<RespondActivities>({ startToCloseTimeout: '60s', retry: { maximumAttempts: 5, initialInterval: '500ms' } });

/**
 * A respond node: its answer (status, content type, headers and body rendered over the run's context) is kept on
 * the run when it has none yet, and the webhook request that started the run answers with it at once
 * (docs/triggers.md#respond-to-the-sender); the run goes on. `sent` is false when an earlier respond node answered.
 */
export async function executeRespond(env: ExecEnv, config: RespondConfig, context: EvalContext): Promise<NodeOutcome> {
  const output = await responses.runRespond({
    organizationId: env.organizationId,
    runId: env.runId,
    status: config.status,
    contentType: config.content_type,
    headers: config.headers,
    body: config.body,
    context,
  });
  return { output, attempts: 1 };
}
