import { z } from 'zod';
import { TOOL_CATEGORIES } from '../../lib/tools/descriptor';
import { definitionDocumentSchema } from '../../lib/dag/document';
import { errorHandlingSchema, parameterSchema, triggerSchema, WORKFLOW_STATUSES } from '../../lib/dag/model';
import { flowControlSchema } from '../../lib/dag/flowControl';
import { documentedAs } from '../../lib/documentedAs';
import { pageQuerySchema } from '../../lib/pagination';
import { compiledDagDocSchema, dagDocSchema } from './documentation';

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
  .meta({ id: 'WorkflowMetadata', description: 'tags, category and estimatedDuration (seconds); other keys are kept as given' });

/** What `tools` may list (the OpenAPI document's view; the service checks each against the registry). */
const toolReferenceDoc = z.union([
  z.string().describe('a tool id'),
  z.object({ id: z.string() }).catchall(z.unknown()).describe('a Tool object (only its id counts)'),
]);

/**
 * Loose on purpose (the service validates the definition and names every problem at its path); documented as the
 * model's schemas (lib/documentedAs.ts).
 */
const definitionFields = {
  dag: documentedAs(z.unknown(), dagDocSchema).describe(
    'DirectedAcyclicGraph: nodes, edges, entryPoints and exitPoints (derived when absent); see docs/workflows.md',
  ),
  tools: documentedAs(z.array(z.unknown()).max(200), z.array(toolReferenceDoc).max(200))
    .optional()
    .describe('tool ids (or Tool objects with an id) the workflow uses'),
  triggers: documentedAs(z.array(z.unknown()).max(50), z.array(triggerSchema).max(50))
    .optional()
    .describe('Trigger list: { type, config, enabled }'),
  parameters: documentedAs(z.array(z.unknown()).max(200), z.array(parameterSchema).max(200))
    .optional()
    .describe('declared parameters: name, type, required, description, default, enum'),
  error_handling: documentedAs(z.record(z.string(), z.unknown()), errorHandlingSchema)
    .optional()
    .describe('default_strategy, retry_config, node_overrides, ...'),
  flow: documentedAs(z.record(z.string(), z.unknown()).nullable(), flowControlSchema.nullable())
    .optional()
    .describe('flow control of the runs: concurrency, throttle, debounce, singleton, priority (docs/runs.md#flow-control); null removes it'),
};

/** The API's create shape (the other accepted shape is the definition document: see docs/workflows.md). */
export const createWorkflowSchema = z.strictObject({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).optional(),
  metadata: metadataSchema.optional(),
  ...definitionFields,
}).meta({ id: 'WorkflowCreate', description: 'A new workflow in the API shape' });

export const updateWorkflowSchema = z.strictObject({
  name: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(10_000).optional(),
  metadata: metadataSchema.optional(),
  ...definitionFields,
  dag: definitionFields.dag.optional(),
}).meta({ id: 'WorkflowUpdate', description: 'A change of a workflow in the API shape: fields left out keep their value' });

const definitionDocumentDoc = definitionDocumentSchema.meta({
  id: 'WorkflowDefinitionDocument',
  description:
    'The authoring format (JSON or YAML): nodes and edges at the top level; a node may write its type\'s keys at ' +
    'its top level and list `depends_on` instead of edges (docs/workflows.md)',
});

const documentDescription =
  'Either `{ name, description, dag, tools, triggers, metadata, parameters, error_handling }` or a workflow ' +
  'definition document `{ name, description, version, metadata, parameters, nodes, edges, error_handling }` ' +
  '(JSON, or YAML with Content-Type application/yaml). Semantic problems answer 422 WORKFLOW_INVALID listing ' +
  'every problem in `details` (path names the node and field).';

/**
 * Route bodies: any object; the service tells the two shapes apart and validates each strictly, so the 400/422
 * details name the exact field. The OpenAPI document shows both shapes (lib/documentedAs.ts).
 */
const looseBody = () => z.record(z.string(), z.unknown());
export const workflowBody = documentedAs(
  looseBody(),
  z.union([createWorkflowSchema, definitionDocumentDoc]).describe(documentDescription),
);
export const workflowUpdateBody = documentedAs(
  looseBody(),
  z.union([updateWorkflowSchema, definitionDocumentDoc]).describe(documentDescription),
);
/** The dry run takes a create body, or with `workflow_id` an update body. */
export const workflowValidateBody = documentedAs(
  looseBody(),
  z.union([createWorkflowSchema, updateWorkflowSchema, definitionDocumentDoc]).describe(documentDescription),
);

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
export const toolSchema = toolSummary.meta({ id: 'Tool', description: 'A registered tool with its input and output JSON Schemas' });

/** A stored definition: nodes as they were accepted (`input`), the rest with its defaults applied. */
const definitionOut = {
  dag: documentedAs(
    z.object({
      nodes: z.array(z.record(z.string(), z.unknown())),
      edges: z.array(z.object({ from: z.string(), to: z.string() })),
      entryPoints: z.array(z.string()),
      exitPoints: z.array(z.string()),
    }),
    compiledDagDocSchema,
    'input',
  ),
  tools: z.array(toolSummary.partial().extend({ id: z.string() })).describe('the Tool objects (a tool removed since shows its id only)'),
  triggers: documentedAs(z.array(z.record(z.string(), z.unknown())), z.array(triggerSchema)),
  parameters: documentedAs(z.array(z.record(z.string(), z.unknown())), z.array(parameterSchema)),
  error_handling: documentedAs(z.record(z.string(), z.unknown()), errorHandlingSchema),
  flow: documentedAs(z.record(z.string(), z.unknown()).nullable(), flowControlSchema.nullable()).describe('null: no flow control'),
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
}).meta({ id: 'Workflow', description: 'A workflow with its current version\'s definition' });

export const workflowValidationSchema = z.object({
  valid: z.literal(true),
  name: z.string().nullable().describe('the name the body gives (null for an update that keeps the name)'),
  ...definitionOut,
}).meta({ id: 'WorkflowValidation', description: 'A dry run\'s answer: the definition exactly as a save would store it' });

export const validateWorkflowQuery = z.strictObject({
  workflow_id: z.uuid().optional().describe('validate the body as an update of this workflow (its own id counts for self-references)'),
});

export const workflowVersionSchema = z.object({
  workflow_id: z.uuid(),
  version: z.number().int(),
  ...definitionOut,
  createdBy: z.uuid().nullable(),
  createdAt: z.string(),
}).meta({ id: 'WorkflowVersion', description: 'One immutable version of a workflow\'s definition' });

export const listToolsQuery = z.object({ category: z.enum(TOOL_CATEGORIES).optional() });
