import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { toolParams, toolTestAnswer, toolTestBody } from '../../domain/tools/schemas';
import type { ToolsService } from '../../domain/tools/service';
import { listToolsQuery, toolSchema } from '../../domain/workflows/schemas';
import { serializeTool } from '../../domain/workflows/serializers';

const tags = ['tools'];

export function toolRoutes(s: ToolsService): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/tools',
      operationId: 'listTools',
      summary: 'List the registered tools with their input and output schemas',
      description:
        'The tools the workers of this API\'s task queue run, as the last worker started published them (a tool added ' +
        'to a worker appears once it restarts; docs/adding-a-tool.md). Test tools (delay, fail) only where ' +
        'TOOLS_TEST_TOOLS_ENABLED. Not paginated: the list is small.',
      tags,
      auth: 'org',
      permission: 'workflow:read',
      query: listToolsQuery,
      responses: {
        200: {
          description: 'every tool',
          schema: z.object({ data: z.array(toolSchema), nextCursor: z.null() }),
        },
      },
      handler: async ({ query }) => ({
        body: { data: (await s.list(query.category)).map(serializeTool), nextCursor: null },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/tools/{tool}/test',
      operationId: 'testTool',
      summary: 'Run one tool with sample input, as a node of a run would',
      description:
        'Runs the tool\'s activity through Temporal on a worker, with the config and sample input given: templates, ' +
        '`{{secret.NAME}}` references, the outbound policy and the schema checks work as in a run. Answers 200 with ' +
        'the output, or with the tool\'s error (`status: failed`, the code a run would record) and the attempts ' +
        'made. Literal credentials, unknown secrets and a config the tool\'s input schema refuses are 4xx, as at ' +
        'workflow save. Rate limited per organization (TOOLS_TEST_RUN_RATE_LIMIT); audited as tool.tested.',
      tags,
      auth: 'org',
      permission: 'run:execute',
      params: toolParams,
      body: toolTestBody,
      responses: { 200: { description: 'the test ran: its outcome', schema: toolTestAnswer } },
      errors: ['TOOL_INPUT_INVALID', 'INLINE_CREDENTIAL', 'UNKNOWN_SECRET', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
      handler: async ({ organization, params, body }) => ({
        body: await s.test(organization.organizationId, params.tool, body),
      }),
    }),
  ];
}
