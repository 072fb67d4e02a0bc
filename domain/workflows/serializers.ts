import type { ToolDescriptor } from '../../lib/tools/descriptor';
import { scanDefinitionCredentials } from '../../lib/dag/inlineCredentials';
import type { StoredDefinition } from '../../lib/dag/model';
import type { WorkflowVersionRow, WorkflowWithDefinition } from './queries';

const iso = (d: Date | string): string => new Date(d).toISOString();

export function serializeTool(tool: ToolDescriptor) {
  return {
    id: tool.id,
    name: tool.name,
    category: tool.category,
    description: tool.description,
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema,
    side_effect: tool.sideEffect,
  };
}

/** Finds a tool by id: the tool catalogue's `get` (domain/tools/catalogue.ts). */
export type ToolLookup = (id: string) => ToolDescriptor | undefined;

/** The spec's Tool objects for the ids a definition uses (a tool removed since shows its id only). */
function toolsOf(definition: StoredDefinition, tools: ToolLookup) {
  return definition.tools.map((id) => {
    const tool = tools(id);
    return tool ? serializeTool(tool) : { id };
  });
}

/**
 * Definitions stored before literal credentials were refused at save show `****` in their place, to every role
 * (docs/secrets.md); runs still use the stored value until the workflow is saved with a secret reference.
 */
function definitionFields(stored: StoredDefinition, tools: ToolLookup) {
  return fieldsOf(scanDefinitionCredentials(stored).redacted, tools);
}

/** A definition's fields as the API shows them. */
function fieldsOf(definition: StoredDefinition, tools: ToolLookup) {
  return {
    dag: definition.dag,
    tools: toolsOf(definition, tools),
    triggers: definition.triggers,
    parameters: definition.parameters,
    error_handling: definition.errorHandling,
    flow: definition.flow ?? null,
  };
}

export function serializeWorkflow(row: WorkflowWithDefinition, tools: ToolLookup) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organizationID: row.organization_id,
    ...definitionFields(row.definition, tools),
    status: row.status,
    version: row.current_version,
    metadata: row.metadata,
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The answer of a dry run: the definition exactly as a save would store it. */
export function serializeValidation(result: { name: string | null; definition: StoredDefinition }, tools: ToolLookup) {
  // Just validated, so free of literal credentials (422 INLINE_CREDENTIAL): nothing to redact, no second scan.
  return { valid: true as const, name: result.name, ...fieldsOf(result.definition, tools) };
}

export function serializeVersion(row: WorkflowVersionRow, tools: ToolLookup) {
  return {
    workflow_id: row.workflow_id,
    version: row.version,
    ...definitionFields(row.definition, tools),
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
  };
}
