import { z } from 'zod';
import { TOOL_CATEGORIES } from '../../activities/tools/types';
import { definitionDocumentSchema } from '../../lib/dag/document';
import { WORKFLOW_STATUSES } from '../../lib/dag/model';
import { pageQuerySchema } from '../../lib/pagination';

export const workflowIdParams = z.object({ id: z.string().max(100).describe('workflow id (UUID)') });
export const versionParams = z.object({
  id: z.string().max(100).describe('workflow id (UUID)'),
  version: z.coerce.number().int().min(1).max(1_000_000).describe('version number'),
});

export const metadataSchema = z
  .object({
    tags: z.array(z.string().min(1).max(100)).max(50).optional(),
    category: z.string().min(1).max(100).optional(),
    estimatedDuration: z.number().min(0).max(31_536_000).optional().describe('seconds'),
  })
  .catchall(z.unknown())
  .describe('tags, category and estimatedDuration (seconds); other keys are kept as given');

const definitionFields = {
  dag: z
    .unknown()
    .describe('DirectedAcyclicGraph: nodes, edges, entryPoints and exitPoints (derived when absent); see docs/workflows.md'),
  tools: z.array(z.unknown()).max(200).optional().describe('tool ids (or Tool objects with an id) the workflow uses'),
  triggers: z.array(z.unknown()).max(50).optional().describe('Trigger list: { type, config, enabled }'),
  parameters: z.array(z.unknown()).max(200).optional().describe('declared parameters: name, type, required, description, default, enum'),
  error_handling: z.record(z.string(), z.unknown()).optional().describe('default_strategy, retry_config, node_overrides, ...'),
};

/** The API's create shape (the other accepted shape is the definition document: see docs/workflows.md). */
export const createWorkflowSchema = z.strictObject({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).optional(),
  metadata: metadataSchema.optional(),
  ...definitionFields,
});

export const updateWorkflowSchema = z.strictObject({
  name: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(10_000).optional(),
  metadata: metadataSchema.optional(),
  ...definitionFields,
  dag: definitionFields.dag.optional(),
});

function jsonSchemaOf(schema: z.ZodType, title: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { title, ...json };
}

const documentDescription =
  'Either `{ name, description, dag, tools, triggers, metadata, parameters, error_handling }` or a workflow ' +
  'definition document `{ name, description, version, metadata, parameters, nodes, edges, error_handling }` ' +
  '(JSON, or YAML with Content-Type application/yaml). Semantic problems answer 422 WORKFLOW_INVALID listing ' +
  'every problem in `details` (path names the node and field).';

/**
 * Route body: any object; the service tells the two shapes apart and validates each strictly, so the 400/422
 * details name the exact field. The OpenAPI document shows both shapes.
 */
export const workflowBody = z.record(z.string(), z.unknown()).meta({
  description: documentDescription,
  anyOf: [jsonSchemaOf(createWorkflowSchema, 'API shape'), jsonSchemaOf(definitionDocumentSchema, 'workflow definition document')],
});

export const listWorkflowsQuery = pageQuerySchema.extend({
  status: z.enum(WORKFLOW_STATUSES).optional(),
  tag: z.string().max(100).optional().describe('workflows carrying this tag'),
  category: z.string().max(100).optional(),
});

export const listVersionsQuery = pageQuerySchema;

const toolSummary = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  output_schema: z.record(z.string(), z.unknown()),
  side_effect: z.enum(['none', 'idempotent', 'at_least_once']),
});
export const toolSchema = toolSummary;

const definitionOut = {
  dag: z.object({
    nodes: z.array(z.record(z.string(), z.unknown())),
    edges: z.array(z.object({ from: z.string(), to: z.string() })),
    entryPoints: z.array(z.string()),
    exitPoints: z.array(z.string()),
  }),
  tools: z.array(toolSummary.partial().extend({ id: z.string() })),
  triggers: z.array(z.record(z.string(), z.unknown())),
  parameters: z.array(z.record(z.string(), z.unknown())),
  error_handling: z.record(z.string(), z.unknown()),
};

export const workflowSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  organizationID: z.uuid(),
  ...definitionOut,
  status: z.enum(WORKFLOW_STATUSES),
  version: z.number().int().describe('current version; a change of graph, tools, triggers, parameters or error handling adds one'),
  metadata: z.record(z.string(), z.unknown()),
  createdBy: z.uuid().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const workflowValidationSchema = z.object({
  valid: z.literal(true),
  name: z.string().nullable().describe('the name the body gives (null for an update that keeps the name)'),
  ...definitionOut,
});

export const validateWorkflowQuery = z.strictObject({
  workflow_id: z.uuid().optional().describe('validate the body as an update of this workflow (its own id counts for self-references)'),
});

export const workflowVersionSchema = z.object({
  workflow_id: z.uuid(),
  version: z.number().int(),
  ...definitionOut,
  createdBy: z.uuid().nullable(),
  createdAt: z.string(),
});

export const listToolsQuery = z.object({ category: z.enum(TOOL_CATEGORIES).optional() });
