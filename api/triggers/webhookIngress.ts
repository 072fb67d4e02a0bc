import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { AppError } from '../../lib/errors';
import { parseTriggers, type WebhookConfig } from '../../lib/triggers/config';
import { mapParameters } from '../../lib/triggers/mapping';
import type { EventsService } from '../../domain/events/service';
import { verify } from '../../lib/triggers/standardWebhooks';
import type { AppDeps } from '../../domain/deps';
import { parseJson, readRawBody } from '../http/body';
import type { RouteResult } from '../http/route';
import { createRefLinker, serializeRunOutcome } from '../../domain/runs/serializers';
import { isOpenRun, type RunWaiter } from '../../domain/runs/wait';
import type { WebhookResponse } from '../../lib/runs/webhookResponse';
import { requestedWait } from '../http/wait';
import { requestIdOf } from '../http/requestLog';
import { findActiveOrganizationByRef } from '../../domain/organizations/settingsReader';
import { findSecret, workflowsWithTrigger } from '../../domain/triggers/queries';
import type { WebhookMatch, WebhookRuns } from '../../domain/triggers/webhookRuns';

/**
 * Inbound webhook triggers: `<METHOD> /api/hooks/{organization}/{path}` (organization id or slug, so two
 * organizations may use the same path). Order of checks, each refusal a clear 4xx:
 * 404 no active workflow has a webhook trigger at this path and method, or the request fails the trigger's
 * authentication (`bearer`: the trigger's secret; `hmac`: Standard Webhooks signature within the tolerance; no secret
 * generated yet) — one answer for all of these, so a caller without the secret cannot tell which paths exist (the
 * log line says which it was); 405 (Allow) only when every trigger at the path is unauthenticated (`none`), whose
 * paths are not secret anyway; 409 several active workflows claim the same path and method; 413 body over
 * TRIGGERS_WEBHOOK_MAX_BODY_BYTES; 429 the trigger's rate limit, counted after authentication (so a caller without
 * the secret can neither see the limit nor spend the sender's budget); 400/415 bad body;
 * 409 IDEMPOTENCY_CONFLICT a delivery key reused for another request; 422 INVALID_PARAMETERS.
 * A repeated delivery (same Idempotency-Key, or the same webhook-id for hmac) starts no second run: it answers 200
 * with the first run's id and `Idempotent-Replayed: true`.
 * Run and wait: with `Prefer: wait=<seconds>` (RFC 7240; capped at RUN_WAIT_MAX) the answer waits for the run, first
 * delivery or repeat alike: 200 with its status, results and errors once it has finished, else 202 as without a
 * wait (the run as it is then). Only the header asks: the query string belongs to the trigger's parameter mapping.
 * Respond to the sender: when the workflow has a `respond` node, every delivery (a repeated one too) waits (up to its `Prefer: wait`,
 * else RUN_WAIT_MAX) for the run's answer and sends it as given (status, content type, headers, body) as soon as that
 * node ran; a run that ends without answering gets the waited answer above; past the wait, 202.
 */

/** A publishing webhook's event data: the mapped fields (any names), else the body (an object as it is). */
function eventDataOf(mapping: Record<string, string> | undefined, roots: { body: unknown; query: unknown; headers: unknown }): Record<string, unknown> {
  if (mapping) return mapParameters(mapping, roots, roots.body, []);
  const { body } = roots;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { body };
}

/** Whether a workflow answers its webhook's sender itself (a respond node in its definition). */
function answersItself(definition: { dag?: { nodes?: { type?: unknown }[] } }): boolean {
  return (definition.dag?.nodes ?? []).some((node) => node.type === 'respond');
}

/** The one refusal for "no such hook" and "not authenticated for it" (same status, code, message and headers). */
const NO_HOOK_MESSAGE = 'no webhook trigger at this URL accepts this request; check the URL, the method and the secret or signature';
const noHook = (): AppError => new AppError('NOT_FOUND', NO_HOOK_MESSAGE);

/** Why a hook request was refused with `noHook()`, for the log only. */
class HookRefusal extends Error {}

const SENSITIVE_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'webhook-signature', 'proxy-authorization']);
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

type Match = Omit<WebhookMatch, 'organizationId'>;

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function parseBody(ctx: Context, raw: Buffer): unknown {
  if (raw.length === 0) return {};
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  const text = raw.toString('utf8');
  if (type === 'application/json' || type.endsWith('+json') || type === '') return parseJson(text);
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  if (type.startsWith('text/')) return text;
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', `content type ${type} not accepted; send JSON, a form or text`);
}

/** `runs` starts what a delivery asks for (domain/triggers/webhookRuns.ts); `waiter` answers callers that wait. */
export function createWebhookIngress(
  deps: AppDeps,
  { runs, waiter, events }: { runs: WebhookRuns; waiter: RunWaiter; events: Pick<EventsService, 'publishFromWebhook'> },
) {
  const { db, config, box } = deps;

  /** The answer of a caller that asked to wait: the finished run's outcome (200), or where it is (202). */
  async function waitedAnswer(organizationId: string, workflowId: string, runId: string, waitMs: number, headers: Record<string, string>, replayed: boolean): Promise<RouteResult> {
    // A first delivery has just started its run: wait without reading it first.
    const row = await waiter.untilFinished(organizationId, runId, waitMs, replayed ? undefined : 'open');
    const location = { Location: `/api/v1/workflows/${workflowId}/runs/${runId}`, ...headers };
    const replay = replayed ? { replayed: true } : {};
    if (row && !isOpenRun(row)) {
      const outcome = await serializeRunOutcome(row, createRefLinker(deps.storage, config.minio.bucket, organizationId));
      return { status: 200, body: { ...outcome, ...replay }, headers: location };
    }
    return { status: 202, body: { run_id: runId, workflow_id: workflowId, status: row?.status ?? 'pending', ...replay }, headers: location };
  }

  /** The answer a respond node gave, as sent: its bytes, under headers that keep it inert on this origin. */
  function respondedAnswer(response: WebhookResponse, runId: string): RouteResult {
    const body = response.contentType === 'application/json' ? JSON.stringify(response.body ?? null) : String(response.body ?? '');
    return {
      status: response.status,
      body,
      headers: {
        ...response.headers,
        'Content-Type': `${response.contentType}; charset=utf-8`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Loom-Run-Id': runId,
      },
    };
  }

  /** A workflow with a respond node: its first deliveries wait for the answer. */
  async function answerOf(organizationId: string, workflowId: string, runId: string, waitMs: number, headers: Record<string, string>, replayed: boolean): Promise<RouteResult> {
    const row = await waiter.untilAnswered(organizationId, runId, waitMs, replayed ? undefined : 'open');
    if (row?.response) {
      const answer = respondedAnswer(row.response, runId);
      return replayed ? { ...answer, headers: { ...answer.headers, 'Idempotent-Replayed': 'true' } } : answer;
    }
    return waitedAnswer(organizationId, workflowId, runId, 0, headers, replayed);
  }

  async function findMatch(organizationRef: string, path: string, method: string): Promise<Match & { organizationId: string }> {
    const org = await findActiveOrganizationByRef(db, organizationRef);
    if (!org) throw new HookRefusal('unknown organization');
    const all: Match[] = (await workflowsWithTrigger(db, org.id, 'webhook', 'active')).flatMap((workflow) =>
      parseTriggers(workflow.definition.triggers)
        .filter((t): t is Match['trigger'] => t.type === 'webhook' && t.enabled && t.config.path === path)
        .map((trigger) => ({ workflow, trigger })),
    );
    if (!all.length) throw new HookRefusal('no active webhook trigger at this path');
    const matching = all.filter((m) => m.trigger.config.method === method);
    if (!matching.length) {
      if (all.some((m) => m.trigger.config.authentication !== 'none')) throw new HookRefusal('no trigger for this method');
      const allow = [...new Set(all.map((m) => m.trigger.config.method))].join(', ');
      throw new AppError('METHOD_NOT_ALLOWED', `this webhook answers ${allow} only`, undefined, { Allow: allow });
    }
    if (matching.length > 1) {
      throw new AppError('CONFLICT', `${matching.length} active workflows use ${method} at this path; give their webhook triggers distinct paths`);
    }
    return { ...matching[0]!, organizationId: org.id };
  }

  async function authenticate(ctx: Context, match: Match, raw: Buffer): Promise<string | null> {
    const config_ = match.trigger.config as WebhookConfig;
    if (config_.authentication === 'none') return null;
    const secret = await findSecret(db, match.workflow.id, match.trigger.key);
    if (!secret) throw new HookRefusal('no secret generated yet (POST .../triggers/{key}/secret)');
    if (config_.authentication === 'bearer') {
      const header = ctx.get('authorization');
      const [scheme, token, extra] = header.split(' ');
      if (!header) throw new HookRefusal('missing authorization');
      if (scheme !== 'Bearer' || !token || extra !== undefined) throw new HookRefusal('invalid authorization format');
      const given = Buffer.from(sha256(token), 'hex');
      if (!timingSafeEqual(given, Buffer.from(secret.secret_hash, 'hex'))) throw new HookRefusal('invalid webhook secret');
      return null;
    }
    const result = verify(
      box.open(secret.secret_sealed),
      { id: ctx.get('webhook-id') || undefined, timestamp: ctx.get('webhook-timestamp') || undefined, signature: ctx.get('webhook-signature') || undefined },
      raw,
      config.triggers.webhookToleranceMs,
    );
    if (!result.ok) throw new HookRefusal(`invalid webhook signature: ${result.problem}`);
    return `webhook-id:${result.id}`;
  }

  /**
   * Finds and authenticates the hook. Every refusal answers `noHook()` after the same work as a real hook's
   * (body read to its limit, a secret lookup), so neither the answer nor its timing tells a path apart from a wrong
   * secret; the reason goes to the request log.
   */
  async function findAndAuthenticate(ctx: Context, params: { organization: string; path: string }, method: string) {
    let match: (Match & { organizationId: string }) | null = null;
    try {
      match = await findMatch(params.organization, params.path, method);
      const raw = await readRawBody(ctx, config.triggers.webhookMaxBodyBytes);
      return { match, raw, signedKey: await authenticate(ctx, match, raw) };
    } catch (err) {
      if (!(err instanceof HookRefusal)) throw err;
      if (!match) {
        await readRawBody(ctx, config.triggers.webhookMaxBodyBytes);
        await findSecret(db, randomUUID(), 'none');
      }
      ctx.state.log?.info({ reason: err.message }, 'webhook request refused');
      throw noHook();
    }
  }

  return async function receive(ctx: Context, params: { organization: string; path: string }): Promise<RouteResult> {
    const method = ctx.method.toUpperCase();
    const { match, raw, signedKey } = await findAndAuthenticate(ctx, params, method);
    const { workflow } = match;
    await runs.admit(match);
    const idempotencyKey = ctx.get('idempotency-key');
    if (idempotencyKey && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new AppError('VALIDATION_ERROR', 'invalid Idempotency-Key', [{ path: 'headers.idempotency-key', problem: '1 to 255 visible ASCII characters' }]);
    }
    const wait = requestedWait(ctx, undefined, config.runWait.maxMs);
    const body = parseBody(ctx, raw);
    // For hmac the signed webhook-id is the delivery key (a replay within the tolerance starts nothing).
    const deliveryKey = signedKey ?? (idempotencyKey ? `key:${idempotencyKey}` : null);
    const publish = (match.trigger.config as WebhookConfig).publish;
    if (publish) {
      const query = { ...ctx.query };
      const headers = Object.fromEntries(Object.entries(ctx.headers).filter(([name]) => !SENSITIVE_HEADERS.has(name)));
      const event = await events.publishFromWebhook(
        match.organizationId,
        { workflowId: workflow.id, triggerKey: match.trigger.key },
        { type: publish, data: eventDataOf(match.trigger.config.parameters, { body, query, headers }) },
        // The same delivery of the same request finds its first event; the same key with another body is another event.
        deliveryKey ? `${deliveryKey}:${sha256(`${method}\n${ctx.querystring}\n${raw.toString('base64')}`)}` : null,
      );
      return { status: 202, body: { event_id: event.id, type: event.type } };
    }
    const { runId, replayed } = await runs.start(match, {
      method,
      deliveryKey,
      requestHash: deliveryKey ? sha256(`${method}\n${ctx.querystring}\n${raw.toString('base64')}`) : '',
      body,
      query: { ...ctx.query },
      headers: Object.fromEntries(Object.entries(ctx.headers).filter(([name]) => !SENSITIVE_HEADERS.has(name))),
      requestId: requestIdOf(ctx),
    });
    // The run exists from here on: a failure while waiting must not release the delivery key (a retry would start another run).
    if (answersItself(workflow.definition)) {
      const headers: Record<string, string> = {
        ...(wait.preferenceApplied ? { 'Preference-Applied': wait.preferenceApplied } : {}),
        ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      };
      return answerOf(match.organizationId, workflow.id, runId, wait.ms > 0 ? wait.ms : config.runWait.maxMs, headers, replayed);
    }
    if (wait.ms > 0) {
      const headers = {
        ...(wait.preferenceApplied ? { 'Preference-Applied': wait.preferenceApplied } : {}),
        ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      };
      return waitedAnswer(match.organizationId, workflow.id, runId, wait.ms, headers, replayed);
    }
    if (replayed) {
      return {
        status: 200,
        body: { run_id: runId, workflow_id: workflow.id, replayed: true },
        headers: { 'Idempotent-Replayed': 'true' },
      };
    }
    return {
      status: 202,
      body: { run_id: runId, workflow_id: workflow.id, status: 'pending' },
      headers: { Location: `/api/v1/workflows/${workflow.id}/runs/${runId}` },
    };
  };
}
