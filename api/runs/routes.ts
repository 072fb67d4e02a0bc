import { z } from 'zod';
import { pageSchema } from '../../lib/pagination';
import { defineRoute, type RouteDef, type RouteInput } from '../http/route';
import { requestedWait } from '../http/wait';
import {
  circuitBreakerSchema,
  deadLetterSchema,
  flowStateSchema,
  listAllRunsQuery,
  listDeadLettersQuery,
  listRunsQuery,
  rerunBody,
  runParams,
  runSchema,
  runSummarySchema,
  startRunBody,
  startRunQuery,
  workflowParams,
  type RunView,
} from '../../domain/runs/schemas';
import { serializeCircuitBreaker, serializeDeadLetter } from '../../domain/runs/serializers';
import { runStatsQuery, runStatsSchema } from '../../domain/runs/statistics';
import type { RunsService } from '../../domain/runs/service';

/** The run-admission sentence shared by every route that starts a run (domain/runs/admission.ts). */
const ADMISSION =
  'Per organization, API starts are limited to RUN_START_RATE_LIMIT attempts per window and ' +
  'RUN_MAX_ACTIVE_PER_ORGANIZATION open (pending or running) runs: over either, 429 RATE_LIMITED with Retry-After, ' +
  'and no run is created (docs/runs.md#fairness).';

/** Says that a start answered an open run of its singleton key instead of creating one. */
const SINGLETON_HEADER = 'Loom-Singleton';

const userIdOf = (input: RouteInput<unknown, unknown, unknown, 'org'>): string | null =>
  input.principal.kind === 'user' ? input.principal.userId : null;

/** `maxWaitMs`: RUN_WAIT_MAX, the longest run and wait. */
export function runRoutes(s: RunsService, options: { maxWaitMs: number }): RouteDef[] {
  const tags = ['runs'];
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows/{id}/runs',
      operationId: 'startRun',
      summary: 'Start a run of the workflow\'s current version',
      description:
        'Parameters are checked against the declared parameters (unknown names, required, type, enum; defaults ' +
        'applied): 422 INVALID_PARAMETERS lists every problem. Draft (test runs) and active workflows run; paused ' +
        'and archived ones answer 409 INVALID_STATE. The run is a Temporal execution whose workflow id is the run id. ' +
        ADMISSION +
        ' **Run and wait**: with `?wait=30s` (or `Prefer: wait=30`) the answer waits for the run to finish, at most ' +
        'that long (RUN_WAIT_MAX caps it): 200 with the finished run, whatever its status, exactly as GET run shows it ' +
        '(results, errors); else 202 with the run as it is then and `Location`. With an Idempotency-Key, a repeat ' +
        'starts nothing and waits for the first request\'s run in the same way (docs/runs.md#run-and-wait). ' +
        '**Flow control** (the workflow\'s `flow`, docs/runs.md#flow-control): a queued or debounced run is created ' +
        '`pending` and starts when its gate admits it; `priority` orders queued runs; a singleton hit answers the open ' +
        'run (200, `Loom-Singleton: existing`); a key expression that fails answers 422 FLOW_KEY_INVALID.',
      tags,
      auth: 'org',
      permission: 'run:execute',
      idempotent: true,
      params: workflowParams,
      query: startRunQuery,
      body: startRunBody,
      responses: {
        201: { description: 'the created run (pending); no wait was asked for', schema: runSchema },
        200: {
          description:
            'run and wait: the run finished within the wait (completed, failed or cancelled); or, with header ' +
            '`Loom-Singleton: existing`, the open run of the same singleton key, answered instead of a new one',
          schema: runSchema,
        },
        202: { description: 'run and wait: the run is still open after the wait; Location points at it', schema: runSchema },
      },
      errors: ['INVALID_PARAMETERS', 'FLOW_KEY_INVALID', 'INVALID_STATE', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENGINE_MISCONFIGURED'],
      handler: async (input) => {
        const { run, existing } = await s.start(input.organization.organizationId, input.params.id, input.body, userIdOf(input), input.actor);
        // The singleton control answered an open run of the same key: no run was created.
        return existing ? { status: 200, body: run, headers: { [SINGLETON_HEADER]: 'existing' } } : { status: 201, body: run };
      },
      // Outside the idempotent part: the stored answer is the created run; every request, first or repeated, waits.
      settle: async ({ ctx, query, params, organization }, result) => {
        const wait = requestedWait(ctx, query.wait, options.maxWaitMs);
        if (wait.ms <= 0 || (result.status !== 201 && result.headers?.[SINGLETON_HEADER] !== 'existing')) return result;
        const created = result.body as RunView;
        const justStarted = result.headers?.['Idempotent-Replayed'] !== 'true';
        const { finished, run } = await s.wait(organization.organizationId, params.id, created.id, wait.ms, justStarted);
        return {
          status: finished ? 200 : 202,
          body: run,
          headers: {
            ...result.headers,
            Location: `/api/v1/workflows/${run.workflow_id}/runs/${run.id}`,
            ...(wait.preferenceApplied ? { 'Preference-Applied': wait.preferenceApplied } : {}),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/runs/stats',
      operationId: 'getRunStats',
      summary: 'Runs per day by status and p50/p95 duration per workflow over the last days',
      description:
        'What the console charts: for the last `days` days (today included; days begin at midnight in ' +
        '`time_zone`), the organization\'s runs per day and status, and per workflow its runs by status and the ' +
        'median and 95th-percentile duration of its completed runs. Read from PostgreSQL only. A `workflow_id` ' +
        'that is not one of the organization\'s answers 404.',
      tags,
      auth: 'org',
      permission: 'run:read',
      query: runStatsQuery,
      responses: { 200: { description: 'the statistics', schema: runStatsSchema } },
      errors: ['NOT_FOUND'],
      handler: async ({ organization, query }) => ({ body: await s.stats(organization.organizationId, query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/runs',
      operationId: 'listAllRuns',
      summary: 'List the organization\'s runs across all its workflows, newest first',
      description:
        'Every run of the active organization, whatever its workflow and trigger (subworkflow children included, ' +
        '`trigger: subworkflow`), filtered by `status`, `workflow_id`, `trigger` (the trigger type) and a creation ' +
        'time range (`created_after` inclusive, `created_before` exclusive). Read from PostgreSQL only, like the ' +
        'per-workflow list; rows as there (without node states).',
      tags,
      auth: 'org',
      permission: 'run:read',
      query: listAllRunsQuery,
      responses: { 200: { description: 'a page of runs (without node states)', schema: pageSchema(runSummarySchema) } },
      handler: async ({ organization, query }) => ({
        body: await s.listAll(organization.organizationId, query),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/runs',
      operationId: 'listRuns',
      summary: 'List runs of a workflow, newest first',
      description:
        'Read from PostgreSQL only (never from Temporal), so old runs stay listed after Temporal retention. Runs ' +
        'started by another workflow\'s subworkflow node are listed here too, under the child workflow, with ' +
        '`trigger.type: "subworkflow"` and `parent` naming the parent run and node (docs/runs.md#subworkflow-runs).',
      tags,
      auth: 'org',
      permission: 'run:read',
      params: workflowParams,
      query: listRunsQuery,
      responses: { 200: { description: 'a page of runs (without node states)', schema: pageSchema(runSummarySchema) } },
      handler: async ({ organization, params, query }) => ({
        body: await s.list(organization.organizationId, params.id, query),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/flow',
      operationId: 'getFlowState',
      summary: "What the workflow's flow control holds now: running, queued and debounced runs per key",
      description:
        'Asked of the workflow\'s flow gate (a Temporal query, docs/runs.md#flow-control): per concurrency key, the ' +
        'runs it admitted that have not ended, the runs queued for concurrency or throttle, and the runs waiting for ' +
        'their debounce period. Empty groups when the gate holds nothing; 503 when the workflow engine does not answer.',
      tags,
      auth: 'org',
      permission: 'run:read',
      params: workflowParams,
      responses: { 200: { description: 'the flow state', schema: flowStateSchema } },
      errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
      handler: async ({ organization, params }) => ({ body: await s.flowState(organization.organizationId, params.id) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/runs/{run_id}',
      operationId: 'getRun',
      summary: 'Read a run: status, node states, results and errors',
      description:
        'While the run is open, node states are live (a Temporal query; the stored row when the query cannot be ' +
        'answered). Once it has finished, everything comes from PostgreSQL. `duration` is in milliseconds. Outputs ' +
        'larger than RUN_LARGE_OUTPUT_BYTES, and those stored to keep what the run assembles within ' +
        'RUN_PAYLOAD_BUDGET_BYTES, appear as `{ $ref, bytes, download_url }` (a presigned link, 15 minutes).',
      tags,
      auth: 'org',
      permission: 'run:read',
      params: runParams,
      responses: { 200: { description: 'the run', schema: runSchema } },
      handler: async ({ organization, params }) => ({
        body: await s.get(organization.organizationId, params.id, params.run_id),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows/{id}/runs/{run_id}/cancel',
      operationId: 'cancelRun',
      summary: 'Cancel a pending or running run',
      description:
        'Running tool activities receive the cancellation with their next heartbeat (at most WORKER_HEARTBEAT_THROTTLE, ' +
        '500 ms, apart) and stop. The answer waits up to 0.8 s for the run to close and shows it: `cancelled`, or ' +
        '`cancelling` while its nodes are still stopping (the run view shows `cancelling` until it ends `cancelled`). ' +
        '409 when the run has already finished.',
      tags,
      auth: 'org',
      permission: 'run:execute',
      params: runParams,
      responses: { 200: { description: 'the run after cancellation', schema: runSchema } },
      errors: ['INVALID_STATE'],
      handler: async ({ organization, params, actor }) => ({
        body: await s.cancel(organization.organizationId, params.id, params.run_id, actor),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows/{id}/runs/{run_id}/retry',
      operationId: 'retryRun',
      summary: 'Retry a failed or cancelled run',
      description:
        'Starts a new run of the same workflow version with the same parameters. Nodes that completed in the ' +
        'original run are reused (node state `via: "reused"`), only what failed or never ran executes. The new run ' +
        'has `retry_of` set to the original. ' +
        ADMISSION,
      tags,
      auth: 'org',
      permission: 'run:execute',
      params: runParams,
      responses: { 201: { description: 'the new run', schema: runSchema } },
      // Nothing to choose here: a version or a node to start from is a rerun's (below), not silently ignored.
      query: z.strictObject({}),
      body: z.strictObject({}).optional(),
      errors: ['RUN_NOT_RETRYABLE', 'INVALID_STATE', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENGINE_MISCONFIGURED'],
      handler: async (input) => ({
        status: 201,
        body: await s.retry(input.organization.organizationId, input.params.id, input.params.run_id, userIdOf(input), input.actor),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows/{id}/runs/{run_id}/rerun',
      operationId: 'rerunRun',
      summary: 'Rerun a finished run from a node, with edited parameters, on a chosen version',
      description:
        'Starts a new run from a finished one (completed, failed or cancelled). The node named in `from_node` and ' +
        'everything downstream of it run again; so does any node that reads a parameter you change, any node the ' +
        'chosen version defines differently, and what depends on them. Every other node that completed keeps its ' +
        'output (node state `via: "reused"`). `version`: the original run\'s (default), `latest`, or a number. The ' +
        'new run has `retry_of` set to the original and `trigger.type: "rerun"` (docs/runs.md#rerun). ' +
        ADMISSION,
      tags,
      auth: 'org',
      permission: 'run:execute',
      params: runParams,
      body: rerunBody,
      responses: { 201: { description: 'the new run', schema: runSchema } },
      errors: ['INVALID_STATE', 'INVALID_PARAMETERS', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENGINE_MISCONFIGURED'],
      handler: async (input) => ({
        status: 201,
        body: await s.rerun(input.organization.organizationId, input.params.id, input.params.run_id, input.body, userIdOf(input), input.actor),
      }),
    }),
  ];
}

export function deadLetterRoutes(s: RunsService): RouteDef[] {
  const tags = ['dead-letters'];
  const idParams = z.object({ id: z.string().max(100) });
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/dead-letters',
      operationId: 'listDeadLetters',
      summary: 'List dead letters of the active organization, newest first',
      description:
        'Nodes whose strategy is `dead_letter_queue` park their input, error and attempts here after their last ' +
        'attempt. Entries expire after the queue\'s retention (7 days by default) and are purged by a schedule.',
      tags,
      auth: 'org',
      permission: 'run:read',
      query: listDeadLettersQuery,
      responses: { 200: { description: 'a page of dead letters', schema: pageSchema(deadLetterSchema) } },
      handler: async ({ organization, query }) => {
        const page = await s.listDeadLetters(organization.organizationId, query);
        return { body: { data: page.data.map(serializeDeadLetter), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/dead-letters/{id}',
      operationId: 'getDeadLetter',
      summary: 'Get one dead letter',
      description: 'The parked node with its input, error and attempts, until its retention ends (then 404).',
      tags,
      auth: 'org',
      permission: 'run:read',
      params: idParams,
      responses: { 200: { description: 'the dead letter', schema: deadLetterSchema } },
      handler: async ({ organization, params }) => ({ body: serializeDeadLetter(await s.getDeadLetter(organization.organizationId, params.id)) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/dead-letters/{id}/replay',
      operationId: 'replayDeadLetter',
      summary: 'Replay a dead letter',
      description:
        'Starts a new run of the same workflow version with the original parameters, reusing every node that ' +
        'completed in the original run: the dead-lettered node runs again, then its descendants. The entry is ' +
        'marked `replayed` with the new run\'s id. ' +
        ADMISSION,
      tags,
      auth: 'org',
      permission: 'run:execute',
      params: idParams,
      responses: {
        201: { description: 'the dead letter and the replay run', schema: z.object({ dead_letter: deadLetterSchema, run: runSchema }) },
      },
      errors: ['INVALID_STATE', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENGINE_MISCONFIGURED'],
      handler: async (input) => {
        const { deadLetter, run } = await s.replayDeadLetter(input.organization.organizationId, input.params.id, userIdOf(input), input.actor);
        return { status: 201, body: { dead_letter: serializeDeadLetter(deadLetter), run } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/dead-letters/{id}',
      operationId: 'deleteDeadLetter',
      summary: 'Delete a dead letter',
      tags,
      auth: 'org',
      permission: 'run:execute',
      params: idParams,
      responses: { 204: { description: 'deleted' } },
      handler: async ({ organization, params }) => {
        await s.deleteDeadLetter(organization.organizationId, params.id);
        return { status: 204 };
      },
    }),
  ];
}

export function circuitBreakerRoutes(s: RunsService): RouteDef[] {
  const tags = ['circuit-breakers'];
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/circuit-breakers',
      operationId: 'listCircuitBreakers',
      summary: 'Circuit breaker state per tool for the active organization',
      description:
        'One breaker per tool that a `circuit_breaker` node has called. Shared by every run and worker: ' +
        '`threshold` consecutive failures open it for `timeout` ms (calls fail at once with CIRCUIT_OPEN), then ' +
        '`half_open_requests` trial calls decide whether it closes or opens again.',
      tags,
      auth: 'org',
      permission: 'run:read',
      responses: { 200: { description: 'breakers', schema: z.object({ data: z.array(circuitBreakerSchema) }) } },
      handler: async ({ organization }) => ({
        body: { data: (await s.listCircuitBreakers(organization.organizationId)).map(serializeCircuitBreaker) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/circuit-breakers/{tool}/reset',
      operationId: 'resetCircuitBreaker',
      summary: 'Close a tool\'s circuit breaker now (admins)',
      description:
        'Breakers are kept per tool and scope (a destination host, or a node\'s `circuit_breaker.key`). With `scope` ' +
        'the breaker of that scope is closed; without, every breaker of the tool is, and the answer shows the first.',
      tags,
      auth: 'org',
      permission: 'operations:manage',
      params: z.object({ tool: z.string().min(1).max(100) }),
      query: z.strictObject({ scope: z.string().max(300).optional().describe('one breaker of the tool ("" for the tool-wide one)') }),
      responses: { 200: { description: 'the breaker, closed', schema: circuitBreakerSchema } },
      handler: async ({ organization, params, query }) => ({
        body: serializeCircuitBreaker(await s.resetCircuitBreaker(organization.organizationId, params.tool, query.scope)),
      }),
    }),
  ];
}
