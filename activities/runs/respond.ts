import { ApplicationFailure } from '@temporalio/common';
import { setRunResponse } from '../../domain/runs/queries';
import type { EvalContext } from '../../lib/runs/types';
import { respondHeaderValueProblem, type RespondContentType, type WebhookResponse } from '../../lib/runs/webhookResponse';
import type { ActivityDeps } from '../deps';
import { buildScope, InputResolutionError, renderValue } from './resolve';

const refuse = (message: string): Error => ApplicationFailure.create({ type: 'RESPOND_INVALID', message, nonRetryable: true });

/** The body as sent: JSON text for application/json, else the text itself (a non-text value as its JSON). */
function bodyText(contentType: RespondContentType, body: unknown): string {
  if (contentType === 'application/json') return JSON.stringify(body ?? null);
  return typeof body === 'string' ? body : JSON.stringify(body ?? '');
}

/** The activity of respond nodes (workflows/runs/respondNode.ts). */
export function createRespondActivities(deps: ActivityDeps) {
  return {
    /**
     * Renders the node's headers and body over the run's context, checks them (header values one line, the body
     * within the API's body limit) and keeps the answer on the run when it has none yet; the webhook request waiting
     * for the run wakes at the commit. `sent`: whether this answer is the run's.
     */
    async runRespond(input: {
      organizationId: string;
      runId: string;
      status: number;
      contentType: RespondContentType;
      headers: Record<string, string>;
      body: unknown;
      context: EvalContext;
    }): Promise<{ status: number; sent: boolean }> {
      let rendered: { headers: Record<string, unknown>; body: unknown };
      try {
        const scope = await buildScope(deps, input.organizationId, input.context);
        rendered = (await renderValue({ headers: input.headers, body: input.body ?? null }, scope)) as typeof rendered;
      } catch (err) {
        if (err instanceof InputResolutionError) throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: true });
        throw err;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(rendered.headers)) {
        const problem = respondHeaderValueProblem(value);
        if (problem) throw refuse(`header ${name}: ${problem}`);
        headers[name.toLowerCase()] = value as string;
      }
      const text = bodyText(input.contentType, rendered.body);
      const limit = deps.config.http.bodyLimitBytes;
      if (Buffer.byteLength(text) > limit) throw refuse(`the body is ${Buffer.byteLength(text)} bytes, more than the ${limit} a webhook answer may carry`);
      const response: WebhookResponse = { status: input.status, contentType: input.contentType, headers, body: input.contentType === 'application/json' ? (rendered.body ?? null) : text };
      const sent = await setRunResponse(deps.db, input.organizationId, input.runId, response);
      return { status: input.status, sent };
    },
  };
}

export type RespondActivities = ReturnType<typeof createRespondActivities>;
