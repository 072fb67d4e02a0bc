import { randomUUID } from 'node:crypto';
import type { ToolDescriptor } from '../../lib/tools/descriptor';
import { AppError, type ErrorDetail } from '../../lib/errors';
import { scanInlineCredentials } from '../../lib/dag/inlineCredentials';
import { toolConfigProblems, topField } from '../../lib/dag/validation/toolConfig';
import { findSecretReferences } from '../../lib/dag/secretReferences';
import { secretFieldProblems } from '../../lib/dag/secretFields';
import { echo } from '../../lib/echo';
import { didYouMean } from '../../lib/suggest';
import type { ToolTestInput, ToolTestResult } from '../../lib/tools/testRun';
import type { ToolActivityInput } from '../../lib/runs/types';
import type { AppDeps } from '../deps';
import type { RateLimiter } from '../ratelimit/limiter';
import { createRefLinker } from '../runs/serializers';
import { existingSecretNames } from '../secrets/queries';
import { createValidationEnv } from '../workflows/validationEnv';
import type { ToolCatalogue } from './catalogue';
import type { ToolTestBody, ToolTestView } from './schemas';
import { tenantPriority } from '../../lib/tenantPriority';

/**
 * The tools routes: the catalogue as listed to an organization, and test runs of one tool with sample input
 * (docs/workflows.md#test-a-tool).
 *
 * A test run is the tool's own activity run through Temporal by a small workflow (workflows/tools/testRun.ts) on the
 * API's task queue, with the input a run's node would give it: the config's templates rendered against the sample
 * `parameters` and `nodes`, `input` set by name over it, `{{secret.NAME}}` references resolved in the worker, the
 * outbound policy applied by the tool's own network calls, the input and output checked against the tool's schemas.
 * The request is checked first as a workflow save would check the node (literal credentials, unknown secrets, the
 * config's template-free fields against the input schema), so a mistake is a 4xx, not a test that fails.
 */

/** The node id of a test run (its idempotency key is `<test id>:test`), and where the sample `input` sits in the scope. */
const TEST_NODE = 'test';
const SAMPLE_NODE = '_sample_input';
/** The default time a test gets when it does not say. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** How long past the test's own limit the API waits for a worker before giving up on it. */
const WORKER_GRACE_MS = 10_000;

export interface ToolsService {
  list(category?: string): Promise<readonly ToolDescriptor[]>;
  test(organizationId: string, toolId: string, body: ToolTestBody): Promise<ToolTestView>;
}

export function createToolsService(deps: AppDeps, catalogue: ToolCatalogue, limiter: RateLimiter): ToolsService {
  const { config, temporal } = deps;
  const env = createValidationEnv(catalogue);

  async function findTool(toolId: string): Promise<ToolDescriptor> {
    await catalogue.refresh();
    const tool = catalogue.get(toolId);
    if (!tool) {
      throw new AppError('NOT_FOUND', `tool "${echo(toolId)}" not found${didYouMean(toolId, catalogue.list().map((t) => t.id))}`);
    }
    return tool;
  }

  /** The checks a workflow save makes of a tool node, on the config and sample input of the request. */
  async function checkRequest(organizationId: string, tool: ToolDescriptor, configValue: Record<string, unknown>, input: Record<string, unknown>) {
    const inline = [
      ...scanInlineCredentials(configValue, 'body.config').problems,
      ...scanInlineCredentials(input, 'body.input').problems,
    ];
    if (inline.length) {
      throw new AppError('INLINE_CREDENTIAL', `the request holds ${inline.length} literal credential${inline.length === 1 ? '' : 's'}`, inline.slice(0, 200));
    }
    const references = [...findSecretReferences(configValue, 'body.config'), ...findSecretReferences(input, 'body.input')];
    if (references.length) {
      const known = await existingSecretNames(deps.db, organizationId, [...new Set(references.map((r) => r.name))]);
      const unknown = references
        .filter((r) => !known.has(r.name))
        .map((r) => ({ path: r.path, problem: `secret "${r.name}" does not exist in this organization (PUT /api/v1/secrets/${r.name})` }));
      if (unknown.length) throw new AppError('UNKNOWN_SECRET', 'the request references secrets this organization does not have', unknown.slice(0, 200));
    }
    // The tool's input is the config with the sample input set over it: one check, each problem under its own key.
    const merged = { ...configValue, ...input };
    // A key the sample input overrides is not in `merged`, but the worker still finds its secret references.
    const overridden = Object.fromEntries(Object.entries(configValue).filter(([key]) => key in input));
    const problems: ErrorDetail[] = [
      ...secretFieldProblems(tool.id, tool.secretFields ?? [], overridden, 'body.config'),
      ...toolConfigProblems(tool.id, merged, [], 'body', env).map((p) => {
        const key = topField(p.path, 'body.config');
        return key in input ? { ...p, path: `body.input${p.path.slice('body.config'.length)}` } : p;
      }),
    ];
    if (problems.length) {
      throw new AppError('TOOL_INPUT_INVALID', `the ${tool.id} tool's input has ${problems.length} problem${problems.length === 1 ? '' : 's'}`, problems.slice(0, 200));
    }
  }

  function timeoutOf(body: ToolTestBody): number {
    const max = config.tools.testRun.maxTimeoutMs;
    if (body.timeout_ms !== undefined && body.timeout_ms > max) {
      throw new AppError('VALIDATION_ERROR', 'invalid body', [{ path: 'body.timeout_ms', problem: `at most ${max} (TOOLS_TEST_RUN_MAX_TIMEOUT)` }]);
    }
    return body.timeout_ms ?? Math.min(DEFAULT_TIMEOUT_MS, max);
  }

  return {
    async list(category) {
      await catalogue.refresh();
      return catalogue.list().filter((t) => !category || t.category === category);
    },

    async test(organizationId, toolId, body) {
      const tool = await findTool(toolId);
      const configValue = body.config ?? {};
      const input = body.input ?? {};
      const timeoutMs = timeoutOf(body);
      await checkRequest(organizationId, tool, configValue, input);
      await limiter.consume([{ bucket: 'tools.test', key: organizationId, rule: config.tools.testRun.rate }]);

      const testId = `tooltest-${randomUUID()}`;
      const activity: ToolActivityInput = {
        organizationId,
        workflowId: '',
        runId: testId,
        nodeId: TEST_NODE,
        config: configValue,
        inputs: Object.keys(input).map((name) => ({ name, from: `${SAMPLE_NODE}.${name}` })),
        outputs: [],
        context: { params: body.parameters ?? {}, nodes: { ...(body.nodes ?? {}), [SAMPLE_NODE]: input } },
        attemptBase: 0,
        largeOutputBytes: config.runs.largeOutputBytes,
      };
      const workflowInput: ToolTestInput = {
        toolId: tool.id,
        activity,
        timeoutMs,
        maxAttempts: body.max_attempts ?? 1,
        heartbeatTimeoutMs: config.runs.heartbeatTimeoutMs,
      };
      const started = Date.now();
      const handle = await temporal.workflow.start('toolTestWorkflow', {
        taskQueue: config.temporal.taskQueue,
        workflowId: testId,
        args: [workflowInput],
        priority: tenantPriority(organizationId),
        // Temporal ends it by itself should nobody wait for it any more.
        workflowExecutionTimeout: timeoutMs + 2 * WORKER_GRACE_MS,
        memo: { organizationId, toolId: tool.id },
      });
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs + WORKER_GRACE_MS)));
      let result: ToolTestResult | null;
      try {
        result = await Promise.race([handle.result() as Promise<ToolTestResult>, gaveUp]);
      } finally {
        clearTimeout(timer);
      }
      if (!result) {
        await handle.terminate('no worker ran the tool test in time').catch(() => undefined);
        throw new AppError('SERVICE_UNAVAILABLE', `no worker ran the ${tool.id} test within ${timeoutMs + WORKER_GRACE_MS} ms; retry later`);
      }
      const duration = Date.now() - started;
      if (result.status === 'failed') {
        return { tool: tool.id, status: 'failed', error: result.error, attempts: result.attempts, duration_ms: duration };
      }
      const link = createRefLinker(deps.storage, config.minio.bucket, organizationId);
      return { tool: tool.id, status: 'completed', output: await link(result.output), attempts: result.attempts, duration_ms: duration };
    },
  };
}
