import { chatCompletion } from './support/llm';
import { retryable } from './support/net';
import { defineTool } from './types';

interface ClassifyInput {
  text: string;
  labels: string[];
  instructions?: string;
  model?: string;
}

/** Picks one of `labels` for a text with an LLM (temperature 0); the answer must be one of the labels. */
export default defineTool<ClassifyInput, { label: string; labels: string[]; model: string }>({
  id: 'classify',
  name: 'Classification',
  category: 'ai',
  description:
    'Classifies `text` into exactly one of `labels` with an OpenAI-compatible endpoint. An answer that is not one ' +
    'of the labels fails retryably (LLM_BAD_RESPONSE). Fails with LLM_NOT_CONFIGURED when no endpoint is configured.',
  inputSchema: {
    type: 'object',
    required: ['text', 'labels'],
    additionalProperties: false,
    properties: {
      text: { type: 'string', minLength: 1, maxLength: 100_000 },
      labels: { type: 'array', minItems: 2, maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 } },
      instructions: { type: 'string', maxLength: 10_000 },
      model: { type: 'string', maxLength: 200 },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['label'],
    properties: { label: { type: 'string' }, labels: { type: 'array' }, model: { type: 'string' } },
  },
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
    const said = answer.text.trim().replace(/^["'`]+|["'`.]+$/g, '').toLowerCase();
    const label = input.labels.find((l) => l.toLowerCase() === said) ?? input.labels.find((l) => said.includes(l.toLowerCase()));
    if (!label) throw retryable('LLM_BAD_RESPONSE', `the model answered "${answer.text.slice(0, 100)}", not one of the labels`);
    return { label, labels: input.labels, model: answer.model };
  },
});
