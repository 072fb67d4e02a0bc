import { z } from 'zod';

/** The tools routes' inputs and answers (docs/workflows.md#test-a-tool); the Tool object is domain/workflows/schemas.ts's. */

/** A key a `from` binding could name: what `input` keys must look like (lib/dag/model.ts REFERENCE's output part). */
const BOUND_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
/** A node id as references write it (`<node>.<output>`). */
const NODE_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

export const toolParams = z.object({ tool: z.string().min(1).max(64).describe('the tool id, e.g. json_transform') });

export const TEST_MAX_ATTEMPTS = 5;

export const toolTestBody = z.strictObject({
  config: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "the node's tool config, as in a workflow's tool node (`config.config`): `${...}` templates and `{{secret.NAME}}` " +
        'references are resolved as in a run',
    ),
  input: z
    .record(z.string().regex(BOUND_NAME), z.unknown())
    .optional()
    .describe('sample input: values a node receives from earlier nodes, set by name over the config (as `inputs` bindings do)'),
  parameters: z.record(z.string(), z.unknown()).optional().describe('run parameters the templates see as `${params.<name>}`'),
  nodes: z
    .record(z.string().regex(NODE_ID), z.record(z.string(), z.unknown()))
    .optional()
    .describe('outputs of earlier nodes the templates see as `${<node>.<output>}`: `{ "<node>": { "<output>": value } }`'),
  timeout_ms: z
    .int()
    .min(100)
    .optional()
    .describe('time for the whole test, retries included (default 30 s or TOOLS_TEST_RUN_MAX_TIMEOUT if lower; at most that)'),
  max_attempts: z.int().min(1).max(TEST_MAX_ATTEMPTS).optional().describe('attempts of a retryable failure (default 1)'),
});
export type ToolTestBody = z.output<typeof toolTestBody>;

export const toolTestAnswer = z
  .object({
    tool: z.string(),
    status: z.enum(['completed', 'failed']).describe('`failed`: the tool failed (see `error`), not the request'),
    output: z
      .unknown()
      .optional()
      .describe('the tool output (completed); larger than RUN_LARGE_OUTPUT_BYTES: `{ $ref, bytes, download_url }` as in runs'),
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .describe('the failure (failed): the code a run node would record, e.g. HTTP_404, INVALID_INPUT, TIMEOUT'),
    attempts: z.int().describe('attempts made'),
    duration_ms: z.int(),
  })
  .meta({ description: 'The outcome of a test run of one tool' });
export type ToolTestView = z.output<typeof toolTestAnswer>;
