import type { ToolContext } from '../types';
import { NonRetryableToolError } from '../types';
import { orgIntegration } from './integrations';
import { failForStatus, retryable, toolHttp } from './net';

/**
 * OpenAI-compatible endpoints (`POST {base}/chat/completions`, `POST {base}/embeddings`). The organization's `llm`
 * integration (config: baseUrl, model, embeddingModel; secret: apiKey) wins over the global SERVICE_LLM_* keys.
 * Organization endpoints go through the SSRF guard like any user-given URL; the global one is the operator's.
 */
export interface LlmEndpoint {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  embeddingModel?: string;
  trusted: boolean;
}

export async function llmEndpoint(ctx: Pick<ToolContext, 'deps' | 'organizationId'>): Promise<LlmEndpoint> {
  const org = await orgIntegration(ctx.deps, ctx.organizationId, 'llm');
  if (org?.config.baseUrl) {
    return {
      baseUrl: org.config.baseUrl,
      apiKey: org.secrets.apiKey,
      model: org.config.model,
      embeddingModel: org.config.embeddingModel,
      trusted: false,
    };
  }
  const global = ctx.deps.config.tools.llm;
  if (global.baseUrl) return { ...global, baseUrl: global.baseUrl, trusted: true };
  throw new NonRetryableToolError(
    'LLM_NOT_CONFIGURED',
    'no LLM endpoint configured: set the organization integration "llm" (baseUrl, model, apiKey) or SERVICE_LLM_BASE_URL',
  );
}

export async function llmPost(
  ctx: Pick<ToolContext, 'deps' | 'organizationId' | 'signal'>,
  endpoint: LlmEndpoint,
  path: '/chat/completions' | '/embeddings',
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}${path}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const res = await toolHttp(ctx, {
    url,
    method: 'POST',
    headers,
    body: JSON.stringify(payload),
    timeoutMs: ctx.deps.config.tools.llm.timeoutMs,
    maxRedirects: 0,
  }, endpoint.trusted ? 'operator' : 'tools');
  const text = res.body.toString('utf8');
  failForStatus(res.status, text, 'the LLM endpoint');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw retryable('LLM_BAD_RESPONSE', 'the LLM endpoint did not answer JSON');
  }
}

export function requireModel(model: string | undefined, kind: string): string {
  if (!model) throw new NonRetryableToolError('LLM_NOT_CONFIGURED', `no ${kind} model: give "model" or configure one`);
  return model;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export async function chatCompletion(
  ctx: Pick<ToolContext, 'deps' | 'organizationId' | 'signal'>,
  input: { messages: ChatMessage[]; model?: string; temperature?: number; max_tokens?: number; json?: boolean },
) {
  const endpoint = await llmEndpoint(ctx);
  const model = requireModel(input.model ?? endpoint.model, 'chat');
  const answer = await llmPost(ctx, endpoint, '/chat/completions', {
    model,
    messages: input.messages,
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.max_tokens !== undefined ? { max_tokens: input.max_tokens } : {}),
    ...(input.json ? { response_format: { type: 'json_object' } } : {}),
  });
  const choice = (answer.choices as { message?: { content?: unknown }; finish_reason?: unknown }[] | undefined)?.[0];
  if (!choice || typeof choice.message?.content !== 'string') {
    throw retryable('LLM_BAD_RESPONSE', 'the LLM endpoint answered without choices[0].message.content');
  }
  return {
    text: choice.message.content,
    model: typeof answer.model === 'string' ? answer.model : model,
    finish_reason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: (answer.usage as Record<string, unknown> | undefined) ?? null,
  };
}
