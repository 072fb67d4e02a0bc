import { z } from 'zod';
import { chatCompletion, type ChatMessage } from './support/llm';
import { defineTool, NonRetryableToolError } from './types';

/** Chat completion against the organization's or the platform's OpenAI-compatible endpoint. */
export default defineTool({
  id: 'llm_completion',
  name: 'LLM completion',
  category: 'ai',
  description:
    'Completes a prompt (or a list of chat `messages`) with an OpenAI-compatible endpoint: the organization ' +
    'integration "llm" or SERVICE_LLM_BASE_URL. `json: true` asks for a JSON object and parses it into `json`. ' +
    'Fails with LLM_NOT_CONFIGURED when no endpoint is configured.',
  input: z.strictObject({
    prompt: z.string().max(200_000).optional(),
    system: z.string().max(50_000).optional(),
    messages: z
      .array(z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }))
      .max(200)
      .optional(),
    model: z.string().max(200).optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.int().min(1).max(200_000).optional(),
    json: z.boolean().optional(),
  }),
  output: z.object({
    text: z.string(),
    json: z.unknown().optional(),
    model: z.string(),
    finish_reason: z.unknown().optional(),
    usage: z.unknown().optional(),
  }),
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
