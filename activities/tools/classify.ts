import { z } from 'zod';
import { chatCompletion } from './support/llm';
import { retryable } from './support/net';
import { defineTool } from './types';
import { trimEndChars, trimStartChars } from '../../lib/trimChars';

/** Picks one of `labels` for a text with an LLM (temperature 0); the answer must be one of the labels. */
export default defineTool({
  id: 'classify',
  name: 'Classification',
  category: 'ai',
  description:
    'Classifies `text` into exactly one of `labels` with an OpenAI-compatible endpoint. An answer that is not one ' +
    'of the labels fails retryably (LLM_BAD_RESPONSE). Fails with LLM_NOT_CONFIGURED when no endpoint is configured.',
  input: z.strictObject({
    text: z.string().min(1).max(100_000),
    // JSON Schema's uniqueItems has no zod method: added as a keyword
    labels: z.array(z.string().min(1).max(200)).min(2).max(100).meta({ uniqueItems: true }),
    instructions: z.string().max(10_000).optional(),
    model: z.string().max(200).optional(),
  }),
  output: z.object({ label: z.string(), labels: z.array(z.string()).optional(), model: z.string().optional() }),
  sideEffect: 'none',
  async execute(input, ctx) {
    const system =
      'You are a classifier. Answer with exactly one label from this list and nothing else: ' +
      input.labels.map((l) => JSON.stringify(l)).join(', ') +
      (input.instructions ? `\n${input.instructions}` : '');
    const answer = await chatCompletion(ctx, {
      model: input.model,
      temperature: 0,
      max_tokens: 50,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: input.text },
      ],
    });
    const said = trimEndChars(trimStartChars(answer.text.trim(), '"\'`'), '"\'`.').toLowerCase();
    const label = input.labels.find((l) => l.toLowerCase() === said) ?? input.labels.find((l) => said.includes(l.toLowerCase()));
    if (!label) throw retryable('LLM_BAD_RESPONSE', `the model answered "${answer.text.slice(0, 100)}", not one of the labels`);
    return { label, labels: input.labels, model: answer.model };
  },
});
