import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import { failForStatus, toolHttp } from './support/net';
import { defineTool, NonRetryableToolError } from './types';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` (unix seconds)
 * and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. A `whsec_` secret is base64 after
 * the prefix; any other secret is used as UTF-8 bytes.
 */
export function signStandardWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The message id is derived from the run and node, so every retry of the node sends the same id (receivers dedupe). */
export function webhookMessageId(idempotencyKey: string): string {
  return `msg_${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 27)}`;
}

export default defineTool({
  id: 'webhook_send',
  name: 'Signed webhook',
  category: 'notification',
  description:
    'POSTs `payload` as JSON, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature ' +
    'HMAC-SHA256 with `secret`; "whsec_<base64>" secrets supported). The webhook-id is the same on every retry of ' +
    'the node, so receivers can drop duplicates. Non-2xx answers fail (5xx/429 retryably).',
  input: z.strictObject({
    url: z.string().regex(/^https?:\/\//).max(2048),
    payload: z.unknown(),
    secret: z.string().min(16).max(4096),
    event: z.string().max(200).optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  output: z.object({ status: z.int(), webhook_id: z.string(), response: z.string().optional() }),
  sideEffect: 'idempotent',
  secretFields: ['secret', 'headers.*'],
  async execute(input, ctx) {
    if (input.secret.startsWith('whsec_') && Buffer.from(input.secret.slice(6), 'base64').length < 16) {
      throw new NonRetryableToolError('INVALID_SECRET', 'a whsec_ secret must hold at least 16 bytes of base64');
    }
    const id = webhookMessageId(ctx.idempotencyKey);
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify(input.event ? { type: input.event, data: input.payload } : input.payload);
    const reserved = /^(webhook-id|webhook-timestamp|webhook-signature|content-type)$/i;
    const extra = Object.fromEntries(Object.entries(input.headers ?? {}).filter(([k]) => !reserved.test(k)));
    const res = await toolHttp(ctx, {
      url: input.url,
      method: 'POST',
      headers: {
        ...extra,
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signStandardWebhook(input.secret, id, timestamp, body),
      },
      body,
      maxRedirects: 0,
    });
    const text = res.body.toString('utf8');
    failForStatus(res.status, text, 'the webhook receiver');
    return { status: res.status, webhook_id: id, response: text.slice(0, 1000) };
  },
});
