import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ActivityDeps } from '../deps';
import { validateToolInput, validateToolOutput } from '../../lib/tools/validation';
import { workerTools } from '../tools/registry';
import { NonRetryableToolError, type ToolDefinition } from '../tools/types';
import type { ToolActivityAnswer, ToolActivityInput, ToolFailureDetails } from '../../lib/runs/types';
import { destinationOf } from '../../lib/destinationLimits';
import { createDestinationTurns, type DestinationTurns } from '../../domain/destinationLimits/service';
import { waitForTurn } from './rateTurns';
import { admitCall, breakerScope, NOT_THE_DESTINATION, recordFailure, recordSuccess } from './circuitBreaker';
import type { BreakerKey } from '../../domain/runs/failureQueries';
import { buildScope, InputResolutionError, toolInputFrom } from './resolve';
import { redactFailure, resolveSecretReferences, type ResolvedSecrets } from './secretReferences';
import { storeIfLarge, storeSerialized } from './values';
import { SerializedJson } from '../../lib/serializedJson';

/**
 * One activity per registered tool, whose activity type IS the tool id (Temporal Web histories then read
 * "json_transform", "http_request"...). Each wraps: resolve inputs → validate input → the call's turn under rate
 * limits on its destination → circuit breaker admission → execute → validate output → keep large outputs in object
 * storage. `{{secret.NAME}}` references in the config are
 * resolved here and nowhere else; their values are taken back out of the output and of failure messages.
 *
 * Failures become ApplicationFailures whose `type` is the error code; validation problems, NonRetryableToolError
 * and an open circuit are non-retryable. `details[0].attempt` tells the interpreter how many attempts were made.
 */

export type ToolActivity = (input: ToolActivityInput) => Promise<ToolActivityAnswer>;

/**
 * How often a running tool activity heartbeats. The worker sends at most one heartbeat per
 * WORKER_HEARTBEAT_THROTTLE (the SDK coalesces the rest), and a cancellation arrives in a heartbeat's answer: beating
 * more often than the throttle keeps the delay of a cancellation at about the throttle.
 */
export const HEARTBEAT_EVERY_MS = 250;

/**
 * The tool's work, abandoned as soon as the activity is cancelled: a tool that observes `ctx.signal` stops itself;
 * one that does not (bounded, short work) is no longer waited for, so a cancellation never waits for a tool.
 */
function untilCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new CancelledFailure('run cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new CancelledFailure('run cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function failure(code: string, message: string, attempt: number, nonRetryable: boolean): ApplicationFailure {
  const details: ToolFailureDetails = { attempt };
  return ApplicationFailure.create({ type: code, message, nonRetryable, details: [details] });
}

function describeProblems(problems: { path: string; problem: string }[]): string {
  return problems.map((p) => `${p.path}: ${p.problem}`).join('; ');
}

/**
 * One call of a tool. `turns` is the worker's (createToolActivities); a caller without one (a unit test) gets one for
 * this call when a rate limit can apply.
 */
export async function runTool(deps: ActivityDeps, tool: ToolDefinition, input: ToolActivityInput, turns?: DestinationTurns): Promise<ToolActivityAnswer> {
  const ctx = Context.current();
  const attempt = ctx.info.attempt + input.attemptBase;
  // Local activities (tools with `runsLocally`) cannot heartbeat: the workflow task they run in is their liveness.
  const heartbeat = ctx.info.isLocal ? undefined : setInterval(() => ctx.heartbeat({ attempt }), HEARTBEAT_EVERY_MS);
  let executing = false;
  let waiting = false;
  let secrets: ResolvedSecrets | null = null;
  let breaker: BreakerKey | null = null;
  try {
    if (input.waitBeforeMs) {
      // A retry delay under a second (a server timer would stretch it to about one): heartbeating, cancellable.
      waiting = true;
      await ctx.sleep(input.waitBeforeMs);
      waiting = false;
    }
    secrets = await resolveSecretReferences(deps, input.organizationId, input.config, tool);
    const scope = await buildScope(deps, input.organizationId, input.context);
    const toolInput = secrets.fill(await toolInputFrom(secrets.config, input.inputs, scope));
    const inputCheck = validateToolInput(tool, toolInput);
    if (!inputCheck.ok) throw failure('INVALID_INPUT', describeProblems(inputCheck.problems), attempt, true);
    // The call's turn under the rate limits of its destination, once its input names it (activities/runs/rateTurns.ts).
    // Before the breaker's admission: a deferred call must not spend a half-open breaker's trial.
    if (input.rateLimit || destinationOf(toolInput)) {
      waiting = true;
      const turn = await waitForTurn(
        turns ?? createDestinationTurns(deps.db, { marginMs: deps.config.tools.rateLimitMarginMs }),
        ctx,
        input,
        { toolId: tool.id, toolInput },
        (lateMs, limits) => deps.logger.info({ runId: input.runId, nodeId: input.nodeId, limits, lateMs: Math.round(lateMs) }, 'tool call late for its turn under a rate limit: taking another'),
      );
      waiting = false;
      // No call made, no attempt spent: the run waits for the turn and calls again with it (lib/runs/turns.ts).
      if (!('go' in turn)) return { deferred: turn, attempt };
    }
    // The breaker of the call's destination, known once its input is (activities/runs/circuitBreaker.ts).
    breaker = input.breaker ? { organizationId: input.organizationId, tool: tool.id, scope: breakerScope(input.breaker, toolInput) } : null;
    if (breaker && input.breaker) {
      const admission = await admitCall(deps.db, breaker, input.breaker);
      if (!admission.allowed) {
        const where = breaker.scope ? ` (${breaker.scope})` : '';
        throw failure('CIRCUIT_OPEN', `circuit open for tool ${tool.id}${where} until ${admission.retryAt.toISOString()}`, attempt, true);
      }
    }

    executing = true;
    const rawOutput = await untilCancelled(tool.execute(toolInput, {
      organizationId: input.organizationId,
      runId: input.runId,
      nodeId: input.nodeId,
      attempt,
      idempotencyKey: `${input.runId}:${input.nodeId}`,
      deps,
      signal: ctx.cancellationSignal,
      heartbeat: (details) => {
        if (!ctx.info.isLocal) ctx.heartbeat(details ?? { attempt });
      },
    }), ctx.cancellationSignal);
    executing = false;
    // A large output made off the event loop is stored as it came (lib/serializedJson.ts). It is not validated
    // against the output schema: that needs the object tree on the loop this path keeps free; the sandbox wrote it
    // with the code whose small outputs are validated. Its keys are checked like any output's.
    const serialized = rawOutput instanceof SerializedJson && rawOutput.bytes.length > input.largeOutputBytes ? rawOutput : null;
    const output = serialized ? null : secrets.redactValue(rawOutput instanceof SerializedJson ? rawOutput.parse() : rawOutput);
    if (!serialized) {
      const outputCheck = validateToolOutput(tool, output);
      if (!outputCheck.ok) throw failure('INVALID_OUTPUT', describeProblems(outputCheck.problems), attempt, true);
    }
    const produced = (name: string): boolean =>
      serialized ? serialized.keys.includes(name) : Boolean(output && typeof output === 'object' && name in (output as Record<string, unknown>));
    const missing = input.outputs.filter((name) => !produced(name));
    if (missing.length) throw failure('OUTPUT_MISSING', `tool ${tool.id} did not produce declared outputs: ${missing.join(', ')}`, attempt, true);

    if (breaker && input.breaker) await recordSuccess(deps.db, breaker, input.breaker);
    const stored = serialized
      ? await storeSerialized(deps, input.organizationId, input.runId, input.nodeId, secrets.redactSerialized(serialized.bytes))
      : await storeIfLarge(deps, input.organizationId, input.runId, input.nodeId, output, input.largeOutputBytes);
    return { output: stored, attempt };
  } catch (err) {
    // The attempt travels in the cancellation's details: the node's state records it (attempts of a cancelled node).
    // Cancelled while waiting for a retry or for its turn: that attempt was never made.
    if (ctx.cancellationSignal.aborted) {
      throw new CancelledFailure('run cancelled', [{ attempt: waiting ? attempt - 1 : attempt } satisfies ToolFailureDetails]);
    }
    const mapped = redactFailure(toFailure(err, attempt), secrets);
    // Only failures of the destination count: not a refusal of the outbound policy, nor anything before the call.
    if (breaker && input.breaker && executing && !NOT_THE_DESTINATION.has(mapped.type ?? '')) {
      await recordFailure(deps.db, breaker, input.breaker, { code: mapped.type ?? 'TOOL_ERROR', message: mapped.message });
    }
    throw mapped;
  } finally {
    clearInterval(heartbeat);
  }
}

function toFailure(err: unknown, attempt: number): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof NonRetryableToolError) return failure(err.code, err.message, attempt, true);
  if (err instanceof InputResolutionError) return failure(err.code, err.message, attempt, true);
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(e.code) ? e.code : 'TOOL_ERROR';
  return failure(code, typeof e?.message === 'string' ? e.message : String(err), attempt, false);
}

/**
 * `{ <toolId>: activity }` for every tool this worker runs: the built-in ones and those of TOOLS_DIRECTORIES, test
 * tools only where enabled (the same set the worker publishes to the tool catalogue, domain/tools).
 */
export function createToolActivities(deps: ActivityDeps): Record<string, ToolActivity> {
  const activities: Record<string, ToolActivity> = {};
  const turns = createDestinationTurns(deps.db, { marginMs: deps.config.tools.rateLimitMarginMs });
  for (const tool of workerTools(deps.config.tools)) activities[tool.id] = (input) => runTool(deps, tool, input, turns);
  return activities;
}
