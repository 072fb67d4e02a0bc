import { chatCompletion, type ChatMessage } from './support/llm';
import { defineTool, NonRetryableToolError } from './types';

interface CompletionInput {
  prompt?: string;
  system?: string;
  messages?: ChatMessage[];
  model?: string;
  temperature?: number;
  max_tokens?: number;
  json?: boolean;
}

/** Chat completion against the organization's or the platform's OpenAI-compatible endpoint. */
export default defineTool<CompletionInput, { text: string; json: unknown; model: string; finish_reason: string | null; usage: unknown }>({
  id: 'llm_completion',
  name: 'LLM completion',
  category: 'ai',
  description:
    'Completes a prompt (or a list of chat `messages`) with an OpenAI-compatible endpoint: the organization ' +
    'integration "llm" or SERVICE_LLM_BASE_URL. `json: true` asks for a JSON object and parses it into `json`. ' +
    'Fails with LLM_NOT_CONFIGURED when no endpoint is configured.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      prompt: { type: 'string', maxLength: 200_000 },
      system: { type: 'string', maxLength: 50_000 },
      messages: {
        type: 'array',
        maxItems: 200,
        items: {
          type: 'object',
          required: ['role', 'content'],
          additionalProperties: false,
          properties: { role: { enum: ['system', 'user', 'assistant'] }, content: { type: 'string' } },
        },
      },
      model: { type: 'string', maxLength: 200 },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
      max_tokens: { type: 'integer', minimum: 1, maximum: 200_000 },
      json: { type: 'boolean' },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['text', 'model'],
    properties: { text: { type: 'string' }, json: {}, model: { type: 'string' }, finish_reason: {}, usage: {} },
  },
  sideEffect: 'none',
  defaultTimeoutMs: 120_000,
  async execute(input, ctx) {
    const messages: ChatMessage[] = [];
    if (input.system) messages.push({ role: 'system', content: input.system });
    messages.push(...(input.messages ?? []));
    if (input.prompt) messages.push({ role: 'user', content: input.prompt });
    if (!messages.some((m) => m.role === 'user')) {
      throw new NonRetryableToolError('INVALID_INPUT', 'give a prompt or at least one user message');
    }
    const answer = await chatCompletion(ctx, { ...input, messages });
    let json: unknown = null;
    if (input.json) {
      try {
        json = JSON.parse(answer.text) as unknown;
      } catch {
        json = null;
      }
    }
    return { ...answer, json };
  },
});
