import type { WorkflowStatus } from '../../lib/dag/model';
import { pageSchema } from '../../lib/pagination';
import { defineRoute, type RouteDef, type RouteInput } from '../http/route';
import {
  listVersionsQuery,
  listWorkflowsQuery,
  validateWorkflowQuery,
  versionParams,
  workflowBody,
  workflowIdParams,
  workflowUpdateBody,
  workflowValidateBody,
  workflowSchema,
  workflowValidationSchema,
  workflowVersionSchema,
} from '../../domain/workflows/schemas';
import { serializeValidation, serializeVersion, serializeWorkflow, type ToolLookup } from '../../domain/workflows/serializers';
import type { WorkflowActor, WorkflowsService } from '../../domain/workflows/service';

const actorOf = (input: RouteInput<unknown, unknown, unknown, 'org'>): WorkflowActor => ({
  role: input.organization.role,
  userId: input.principal.kind === 'user' ? input.principal.userId : null,
  audit: input.actor,
});

const ownership =
  'Members manage the workflows they created; admins and owners manage all; viewers only read. Archived ' +
  'workflows are read-only.';

function transitionRoute(
  s: WorkflowsService,
  tools: ToolLookup,
  action: string,
  to: WorkflowStatus,
  summary: string,
  description: string,
): RouteDef {
  return defineRoute({
    method: 'post',
    path: `/api/v1/workflows/{id}/${action}`,
    operationId: `${action}Workflow`,
    summary,
    description: `${description} Any other transition answers 409 INVALID_STATE. ${ownership}`,
    tags: ['workflows'],
    auth: 'org',
    permission: 'workflow:write',
    params: workflowIdParams,
    responses: { 200: { description: 'the workflow with its new status', schema: workflowSchema } },
    errors: ['INVALID_STATE'],
    handler: async (input) => ({
      body: serializeWorkflow(await s.transition(input.organization.organizationId, actorOf(input), input.params.id, to), tools),
    }),
  });
}

/** `tools`: the tool catalogue's lookup, for the Tool objects of a definition (domain/tools/catalogue.ts). */
export function workflowRoutes(s: WorkflowsService, tools: ToolLookup): RouteDef[] {
  const tags = ['workflows'];
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows',
      operationId: 'createWorkflow',
      summary: 'Create a workflow (status draft, version 1)',
      description:
        'Accepts the API shape `{ name, description, dag, tools, triggers, metadata, parameters, error_handling }` ' +
        'or a workflow definition document (`nodes` at the top level; JSON, or YAML with Content-Type ' +
        'application/yaml). Entry and exit points are derived when absent. Every problem of the definition is ' +
        'returned at once: 422 WORKFLOW_INVALID with `details` [{ path, problem }], path naming the node and field.',
      tags,
      auth: 'org',
      permission: 'workflow:write',
      body: workflowBody,
      bodyFormats: ['json', 'yaml'],
      responses: { 201: { description: 'the created workflow', schema: workflowSchema } },
      errors: ['WORKFLOW_INVALID'],
      handler: async (input) => ({
        status: 201,
        body: serializeWorkflow(await s.create(input.organization.organizationId, actorOf(input), input.body), tools),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows/validate',
      operationId: 'validateWorkflow',
      summary: 'Check a workflow without saving it (dry run)',
      description:
        'Takes the same body as create (API shape or definition document, JSON or YAML), or, with `workflow_id`, the ' +
        'same body as an update of that workflow (fields not given keep their current value). Runs every check a save ' +
        'runs, subworkflow references and secret references included, and stores, audits and announces nothing. ' +
        '200 with the definition exactly as a save would store it (entry and exit points derived, defaults applied); ' +
        'otherwise the answer the save would give: 400 VALIDATION_ERROR, 422 WORKFLOW_INVALID / INLINE_CREDENTIAL / ' +
        'UNKNOWN_SECRET with `details`.',
      tags,
      auth: 'org',
      permission: 'workflow:write',
      query: validateWorkflowQuery,
      body: workflowValidateBody,
      bodyFormats: ['json', 'yaml'],
      responses: { 200: { description: 'the definition is valid', schema: workflowValidationSchema } },
      errors: ['WORKFLOW_INVALID', 'INLINE_CREDENTIAL', 'UNKNOWN_SECRET'],
      handler: async (input) => ({
        body: serializeValidation(await s.validate(input.organization.organizationId, input.body, input.query.workflow_id), tools),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows',
      operationId: 'listWorkflows',
      summary: 'List workflows, newest first',
      description: 'Filters: status, tag (one of metadata.tags), category (metadata.category).',
      tags,
      auth: 'org',
      permission: 'workflow:read',
      query: listWorkflowsQuery,
      responses: { 200: { description: 'a page of workflows', schema: pageSchema(workflowSchema) } },
      handler: async ({ organization, query }) => {
        const page = await s.list(organization.organizationId, query);
        return { body: { data: page.data.map((row) => serializeWorkflow(row, tools)), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}',
      operationId: 'getWorkflow',
      summary: 'Read a workflow (its current version)',
      tags,
      auth: 'org',
      permission: 'workflow:read',
      params: workflowIdParams,
      responses: { 200: { description: 'the workflow', schema: workflowSchema } },
      handler: async ({ organization, params }) => ({
        body: serializeWorkflow(await s.get(organization.organizationId, params.id), tools),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/workflows/{id}',
      operationId: 'updateWorkflow',
      summary: 'Update a workflow',
      description:
        'Fields given replace the current ones; fields left out stay. A change of dag, tools, triggers, ' +
        'parameters or error_handling creates a new version (old versions stay readable and runs keep the ' +
        `version they started with); name, description and metadata edits do not. Accepts a definition document too. ${ownership}`,
      tags,
      auth: 'org',
      permission: 'workflow:write',
      params: workflowIdParams,
      body: workflowUpdateBody,
      bodyFormats: ['json', 'yaml'],
      responses: { 200: { description: 'the updated workflow', schema: workflowSchema } },
      errors: ['WORKFLOW_INVALID', 'INVALID_STATE'],
      handler: async (input) => ({
        body: serializeWorkflow(
          await s.update(input.organization.organizationId, actorOf(input), input.params.id, input.body),
          tools,
        ),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/workflows/{id}',
      operationId: 'deleteWorkflow',
      summary: 'Delete a workflow, its versions and its runs',
      description: `Refused with 409 INVALID_STATE while runs are pending or running. ${ownership}`,
      tags,
      auth: 'org',
      permission: 'workflow:write',
      params: workflowIdParams,
      responses: { 204: { description: 'deleted' } },
      errors: ['INVALID_STATE'],
      handler: async (input) => {
        await s.remove(input.organization.organizationId, actorOf(input), input.params.id);
        return { status: 204 };
      },
    }),
    transitionRoute(s, tools, 'activate', 'active', 'Activate a workflow (draft or paused -> active)', 'draft -> active, paused -> active.'),
    transitionRoute(s, tools, 'pause', 'paused', 'Pause a workflow (active -> paused)', 'active -> paused; paused workflows refuse new runs.'),
    transitionRoute(s, tools, 'archive', 'archived', 'Archive a workflow (final)', 'any -> archived; archived is final and read-only.'),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/versions',
      operationId: 'listWorkflowVersions',
      summary: 'List the versions of a workflow, newest first',
      tags,
      auth: 'org',
      permission: 'workflow:read',
      params: workflowIdParams,
      query: listVersionsQuery,
      responses: { 200: { description: 'a page of versions', schema: pageSchema(workflowVersionSchema) } },
      handler: async ({ organization, params, query }) => {
        const page = await s.listVersions(organization.organizationId, params.id, query);
        return { body: { data: page.data.map((row) => serializeVersion(row, tools)), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/versions/{version}',
      operationId: 'getWorkflowVersion',
      summary: 'Read one version of a workflow',
      tags,
      auth: 'org',
      permission: 'workflow:read',
      params: versionParams,
      responses: { 200: { description: 'the version', schema: workflowVersionSchema } },
      handler: async ({ organization, params }) => ({
        body: serializeVersion(await s.getVersion(organization.organizationId, params.id, params.version), tools),
      }),
    }),
  ];
}
