import { z } from 'zod';
import { llmEndpoint, llmPost, requireModel } from './support/llm';
import { retryable } from './support/net';
import { defineTool } from './types';

/** Embedding vectors from an OpenAI-compatible `/embeddings` endpoint (organization integration "llm" or global). */
export default defineTool({
  id: 'embedding_generate',
  name: 'Embedding generation',
  category: 'ai',
  description:
    'Generates embedding vectors for one text or a list (max 256) with an OpenAI-compatible endpoint. The model ' +
    'is `model`, else the endpoint\'s embedding model. Fails with LLM_NOT_CONFIGURED when none is configured.',
  input: z.strictObject({
    input: z.union([z.string().min(1).max(100_000), z.array(z.string().min(1).max(100_000)).min(1).max(256)]),
    model: z.string().max(200).optional(),
    dimensions: z.int().min(1).max(8192).optional(),
  }),
  output: z.object({ embeddings: z.array(z.array(z.number())), model: z.string(), dimensions: z.int() }),
  sideEffect: 'none',
  async execute(input, ctx) {
    const endpoint = await llmEndpoint(ctx);
    const model = requireModel(input.model ?? endpoint.embeddingModel ?? endpoint.model, 'embedding');
    const texts = Array.isArray(input.input) ? input.input : [input.input];
    const answer = await llmPost(ctx, endpoint, '/embeddings', {
      model,
      input: texts,
      ...(input.dimensions ? { dimensions: input.dimensions } : {}),
    });
    const data = answer.data as { embedding?: unknown; index?: number }[] | undefined;
    if (!Array.isArray(data) || data.length !== texts.length || data.some((d) => !Array.isArray(d.embedding))) {
      throw retryable('LLM_BAD_RESPONSE', 'the embeddings endpoint answered without one embedding per input');
    }
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding as number[]);
    return { embeddings: ordered, model: typeof answer.model === 'string' ? answer.model : model, dimensions: ordered[0]!.length };
  },
});
