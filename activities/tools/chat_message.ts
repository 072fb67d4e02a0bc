import { failForStatus, toolHttp } from './support/net';
import { defineTool } from './types';

interface ChatInput {
  webhook_url: string;
  text: string;
  username?: string;
  icon_emoji?: string;
  channel?: string;
  blocks?: unknown[];
}

/**
 * Posts a chat message to an incoming-webhook URL (Slack-compatible `{ text }` body; Mattermost, Rocket.Chat and
 * Discord's /slack endpoint accept the same). The URL goes through the SSRF guard.
 */
export default defineTool<ChatInput, { status: number; response: string }>({
  id: 'chat_message',
  name: 'Chat message',
  category: 'notification',
  description:
    'Posts `{ text, username?, icon_emoji?, channel?, blocks? }` to a Slack-compatible incoming-webhook URL. ' +
    'Non-2xx answers fail (5xx/429 retryably).',
  inputSchema: {
    type: 'object',
    required: ['webhook_url', 'text'],
    additionalProperties: false,
    properties: {
      webhook_url: { type: 'string', pattern: '^https?://', maxLength: 2048 },
      text: { type: 'string', minLength: 1, maxLength: 40_000 },
      username: { type: 'string', maxLength: 100 },
      icon_emoji: { type: 'string', maxLength: 100 },
      channel: { type: 'string', maxLength: 100 },
      blocks: { type: 'array', maxItems: 50 },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'integer' }, response: { type: 'string' } },
  },
  sideEffect: 'at_least_once',
  async execute(input, ctx) {
    const { webhook_url: url, ...message } = input;
    const res = await toolHttp(ctx, {
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      maxRedirects: 0,
    });
    const text = res.body.toString('utf8');
    failForStatus(res.status, text, 'the chat webhook');
    return { status: res.status, response: text.slice(0, 1000) };
  },
});
