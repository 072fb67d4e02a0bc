import { z } from 'zod';
import type { GuardedResponse } from '../../lib/net/httpClient';
import { retryable, toolHttp } from './support/net';
import { defineTool, NonRetryableToolError, type ToolContext } from './types';

/**
 * Posts a chat message to an incoming-webhook URL (Slack-compatible `{ text }` body; Mattermost, Rocket.Chat and
 * Discord's /slack endpoint accept the same). The URL goes through the outbound policy (support/net.ts toolHttp,
 * no redirects followed); errors carry a code and a fixed message, never the answer's body or a resolved address.
 */
export default defineTool({
  id: 'chat_message',
  name: 'Chat message',
  category: 'notification',
  description:
    'Posts `{ text, username?, icon_emoji?, channel?, blocks? }` to a Slack-compatible incoming-webhook URL. ' +
    'Non-2xx answers fail (5xx/429 retryably).',
  input: z.strictObject({
    webhook_url: z.string().regex(/^https?:\/\//).max(2048),
    text: z.string().min(1).max(40_000),
    username: z.string().max(100).optional(),
    icon_emoji: z.string().max(100).optional(),
    channel: z.string().max(100).optional(),
    blocks: z.array(z.unknown()).max(50).optional(),
  }),
  output: z.object({ status: z.int(), response: z.string().optional() }),
  sideEffect: 'at_least_once',
  // An incoming-webhook URL is itself the credential (Slack's carries its token in the path); the tool never
  // repeats it: errors are fixed texts and the output is the answer's status and body.
  secretFields: ['webhook_url'],
  async execute(input, ctx) {
    const { webhook_url: url, ...message } = input;
    const res = await postToWebhook(ctx, url, JSON.stringify(message));
    const text = res.body.toString('utf8');
    failForWebhookStatus(res.status);
    return { status: res.status, response: text.slice(0, 1000) };
  },
});

/**
 * The webhook is a tenant-named destination: its failures say what went wrong with a code, never the answer's body
 * nor the address a host resolved to (both can carry internal details into a run that viewers read).
 */
async function postToWebhook(ctx: ToolContext, url: string, body: string): Promise<GuardedResponse> {
  try {
    return await toolHttp(ctx, { url, method: 'POST', headers: { 'content-type': 'application/json' }, body, maxRedirects: 0 });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const safeCode = typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : 'HTTP_CONNECTION_FAILED';
    ctx.deps.logger.warn({ err, organizationId: ctx.organizationId, runId: ctx.runId }, 'chat_message: webhook call failed');
    if (err instanceof NonRetryableToolError) {
      throw new NonRetryableToolError(safeCode, WEBHOOK_FAILURES[safeCode] ?? 'the chat webhook URL was refused');
    }
    throw retryable(safeCode, WEBHOOK_FAILURES[safeCode] ?? 'the chat webhook could not be reached');
  }
}

const WEBHOOK_FAILURES: Record<string, string> = {
  URL_REFUSED: 'the chat webhook URL is refused by the outbound policy (only public http(s) destinations)',
  DNS_FAILED: 'the chat webhook host name does not resolve',
  HTTP_TIMEOUT: 'the chat webhook did not answer in time',
  RESPONSE_TOO_LARGE: 'the chat webhook answer is too large',
  TOO_MANY_REDIRECTS: 'the chat webhook answered with a redirect (not followed)',
};

/** 5xx, 408 and 429 are worth retrying; other 4xx are not. The answer's body is not repeated. */
function failForWebhookStatus(status: number): void {
  if (status < 400) return;
  const message = `the chat webhook answered ${status}`;
  if (status >= 500 || status === 429 || status === 408) throw retryable(`HTTP_${status}`, message);
  throw new NonRetryableToolError(`HTTP_${status}`, message);
}
