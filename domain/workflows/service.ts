import { canonicalJson } from '../../lib/canonicalJson';
import type { Db } from '../../db/knex';
import { compileDocument, isDefinitionDocument } from '../../lib/dag/document';
import type { StoredDefinition, WorkflowStatus } from '../../lib/dag/model';
import {
  loadSubworkflowGraph,
  subworkflowIdsOf,
  subworkflowProblems,
  type WorkflowLookup,
} from '../../lib/dag/subworkflows';
import { validateDefinition, type DefinitionInput, type ValidationEnv } from '../../lib/dag/validate';
import type { ToolDescriptor } from '../../lib/tools/descriptor';
import { credentialFindings, type CredentialFindings } from './credentialFindings';
import { isLargeDefinition, type OffLoopValidator } from './validationThread';
import { AppError, notFound, type ErrorDetail } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { decodeCursorOrThrow, encodeCursor, type Page } from '../../lib/pagination';
import type { Role } from '../../lib/permissions';
import { zodIssueDetails } from '../../lib/zodIssues';
import { recordAudit } from '../audit/record';
import type { Actor } from '../principals';
import {
  countOpenRuns,
  deleteWorkflow,
  findVersion,
  findWorkflow,
  findWorkflowsForReference,
  insertVersion,
  insertWorkflow,
  listVersions,
  listWorkflows,
  lockWorkflow,
  updateWorkflowRow,
  type WorkflowRow,
  type WorkflowVersionRow,
  type WorkflowWithDefinition,
} from './queries';
import { createWorkflowSchema, updateWorkflowSchema } from './schemas';

/**
 * The rules of workflow definitions: the two input shapes (API fields or definition document), validation (422 with
 * every problem), versioning (a change of graph, tools, triggers, parameters or error handling adds an immutable
 * version; name, description and metadata edits do not), status transitions, and who may change what (viewers
 * read; members manage the workflows they created; admins and owners manage all).
 */

/** Who is acting: the role in the organization, and the user id when the caller is a user (not an API key). */
export interface WorkflowActor {
  role: Role;
  userId: string | null;
  /** Who acted, from where: for the audit log. */
  audit: Actor;
}

export interface StatusChangeEvent {
  organizationId: string;
  workflowId: string;
  from: WorkflowStatus;
  to: WorkflowStatus;
  version: number;
  definition: StoredDefinition;
}

export interface VersionCreatedEvent {
  organizationId: string;
  workflowId: string;
  status: WorkflowStatus;
  version: number;
  definition: StoredDefinition;
}

/**
 * Extension points for other domains (e.g. triggers create, pause or drop schedules). Listeners run after the
 * change is committed; a failing listener is logged and does not undo the change.
 */
export interface WorkflowListeners {
  onStatusChange: ((event: StatusChangeEvent) => Promise<void>)[];
  onVersionCreated: ((event: VersionCreatedEvent) => Promise<void>)[];
  onDeleted: ((event: { organizationId: string; workflowId: string }) => Promise<void>)[];
}

export const emptyListeners = (): WorkflowListeners => ({ onStatusChange: [], onVersionCreated: [], onDeleted: [] });

/** Allowed transitions: draft -> active; active <-> paused; any -> archived (final). */
const TRANSITIONS: Record<WorkflowStatus, WorkflowStatus[]> = {
  draft: ['active', 'archived'],
  active: ['paused', 'archived'],
  paused: ['active', 'archived'],
  archived: [],
};

export interface ServiceDeps {
  db: Db;
  logger: Logger;
  validationEnv: ValidationEnv;
  /** Brings the tools `validationEnv` reads up to date before a definition is checked (the tool catalogue, domain/tools). */
  refreshTools?(): Promise<void>;
  listeners: WorkflowListeners;
  /** Validates large definitions off the event loop (validationThread.ts), against the tools `list` gives. */
  offLoop?: { validator: OffLoopValidator; tools(): readonly ToolDescriptor[] };
  /** Which of `names` the organization's secrets store holds (save-time check of `{{secret.NAME}}`). */
  secretNames(organizationId: string, names: string[]): Promise<Set<string>>;
}

type Serialized = WorkflowWithDefinition;

function invalid(details: ErrorDetail[]): AppError {
  const count = details.length;
  return new AppError('WORKFLOW_INVALID', `the workflow definition has ${count} problem${count === 1 ? '' : 's'}`, details.slice(0, 200));
}

function badRequest(error: import('zod').ZodError, schema: import('zod').ZodType): AppError {
  return new AppError('VALIDATION_ERROR', 'invalid body', zodIssueDetails(error, 'body', schema));
}

interface ParsedInput {
  name?: string;
  description?: string;
  metadata?: Record<string, unknown>;
  /** present when the body carries a definition (always for documents and creates) */
  definition?: DefinitionInput;
  /** problem paths: `dag.` for the API shape, none for documents */
  dagPath: string;
}

/**
 * An update's definition: fields not given keep their current value; `dag` too (an update may change only
 * triggers). Stored tools are declared + used; without a new list, they are re-derived from the nodes.
 */
function mergeDefinition(given: Partial<DefinitionInput>, current: StoredDefinition): DefinitionInput {
  return {
    dag: given.dag ?? current.dag,
    tools: given.tools ?? (given.dag ? [] : current.tools),
    triggers: given.triggers ?? current.triggers,
    parameters: given.parameters ?? current.parameters,
    errorHandling: given.errorHandling ?? current.errorHandling,
    // `flow: null` removes the flow control; left out, it is kept
    flow: given.flow === undefined ? current.flow : given.flow,
  };
}

export function createWorkflowsService(deps: ServiceDeps) {
  const { db, logger, validationEnv, listeners, secretNames } = deps;

  const lookup: WorkflowLookup = async (ids) =>
    (await findWorkflowsForReference(db, ids)).map((w) => ({
      id: w.id,
      organizationId: w.organization_id,
      subworkflowIds: subworkflowIdsOf(w.definition),
      parameters: w.definition.parameters ?? [],
    }));

  function parseBody(body: unknown, mode: 'create' | 'update'): ParsedInput {
    if (isDefinitionDocument(body)) {
      const compiled = compileDocument(body);
      if (!compiled.ok) throw invalid(compiled.problems);
      const doc = compiled.value;
      const metadata = createWorkflowSchema.shape.metadata.safeParse(doc.metadata);
      if (!metadata.success) throw invalid(zodIssueDetails(metadata.error, 'metadata', createWorkflowSchema.shape.metadata));
      return {
        name: doc.name,
        description: doc.description,
        metadata: metadata.data,
        definition: { dag: doc.dag, tools: doc.tools, triggers: doc.triggers, parameters: doc.parameters, errorHandling: doc.errorHandling, flow: doc.flow },
        dagPath: '',
      };
    }
    const schema = mode === 'create' ? createWorkflowSchema : updateWorkflowSchema;
    const parsed = schema.safeParse(body ?? {});
    if (!parsed.success) throw badRequest(parsed.error, schema);
    const b = parsed.data;
    const touchesDefinition = ['dag', 'tools', 'triggers', 'parameters', 'error_handling', 'flow'].some(
      (k) => (b as Record<string, unknown>)[k] !== undefined,
    );
    return {
      name: b.name,
      description: b.description,
      metadata: b.metadata,
      definition: touchesDefinition || mode === 'create'
        ? { dag: b.dag, tools: b.tools, triggers: b.triggers, parameters: b.parameters, errorHandling: b.error_handling, flow: b.flow }
        : undefined,
      dagPath: 'dag',
    };
  }

  /** Validates a definition, subworkflow rules included; throws 422 with every problem. */
  async function compile(
    input: DefinitionInput,
    dagPath: string,
    self: { id: string | null; organizationId: string },
  ): Promise<StoredDefinition> {
    await deps.refreshTools?.();
    const checked =
      deps.offLoop && isLargeDefinition(input)
        ? await deps.offLoop.validator.validate(self.organizationId, { input, dagPath, tools: deps.offLoop.tools() })
        : { result: validateDefinition(input, validationEnv, { dagPath }) };
    const { result } = checked;
    const problems: ErrorDetail[] = result.ok ? [] : [...result.problems];
    if (result.subworkflows.length) {
      const graph = await loadSubworkflowGraph(result.subworkflows.map((s) => s.workflowId), lookup);
      problems.push(...subworkflowProblems(self, result.subworkflows, graph));
    }
    if (problems.length || !result.ok) throw invalid(problems);
    await checkCredentials(checked.credentials ?? credentialFindings(result.definition, dagPath), self.organizationId);
    return result.definition;
  }

  /**
   * Node configs hold no literal credential (422 INLINE_CREDENTIAL) and reference only secrets the organization
   * has (422 UNKNOWN_SECRET), each problem naming the node and key (docs/secrets.md).
   */
  async function checkCredentials(findings: CredentialFindings, organizationId: string): Promise<void> {
    const { inline, references } = findings;
    if (inline.length) {
      throw new AppError('INLINE_CREDENTIAL', `the definition holds ${inline.length} literal credential${inline.length === 1 ? '' : 's'}`, inline.slice(0, 200));
    }
    if (!references.length) return;
    const known = await secretNames(organizationId, [...new Set(references.map((r) => r.name))]);
    const unknown = references
      .filter((r) => !known.has(r.name))
      .map((r) => ({ path: r.path, problem: `secret "${r.name}" does not exist in this organization (PUT /api/v1/secrets/${r.name})` }));
    if (unknown.length) {
      throw new AppError('UNKNOWN_SECRET', `the definition references ${unknown.length === 1 ? 'a secret' : 'secrets'} this organization does not have`, unknown.slice(0, 200));
    }
  }

  function metadataColumns(metadata: Record<string, unknown>): { tags: string[]; category: string | null } {
    const tags = Array.isArray(metadata.tags) ? [...new Set(metadata.tags as string[])] : [];
    return { tags, category: typeof metadata.category === 'string' ? metadata.category : null };
  }

  function assertCanManage(actor: WorkflowActor, row: WorkflowRow): void {
    if (actor.role === 'owner' || actor.role === 'admin') return;
    if (actor.role === 'member' && actor.userId !== null && row.created_by === actor.userId) return;
    throw new AppError(
      'FORBIDDEN',
      actor.role === 'viewer' ? 'viewers cannot change workflows' : 'members can only change the workflows they created',
    );
  }

  async function notify<E>(kind: keyof WorkflowListeners, fns: ((e: E) => Promise<void>)[], event: E): Promise<void> {
    for (const fn of fns) {
      try {
        await fn(event);
      } catch (err) {
        logger.error({ err, listener: kind }, 'workflow listener failed');
      }
    }
  }

  async function get(organizationId: string, id: string): Promise<Serialized> {
    const row = await findWorkflow(db, organizationId, id);
    if (!row) throw notFound('workflow');
    return row;
  }

  function definitionChanged(a: StoredDefinition, b: StoredDefinition): boolean {
    return canonicalJson(a) !== canonicalJson(b);
  }

  return {
    async create(organizationId: string, actor: WorkflowActor, body: unknown): Promise<Serialized> {
      const input = parseBody(body, 'create');
      if (!input.name) throw new AppError('VALIDATION_ERROR', 'invalid body', [{ path: 'body.name', problem: 'required' }]);
      const definition = await compile(input.definition!, input.dagPath, { id: null, organizationId });
      const metadata = input.metadata ?? {};
      const row = await insertWorkflow(db, {
        organizationId,
        name: input.name,
        description: input.description ?? '',
        ...metadataColumns(metadata),
        metadata,
        createdBy: actor.userId,
        definition,
      });
      await recordAudit(db, { organizationId, actor: actor.audit, action: 'workflow.created', target: { type: 'workflow', id: row.id }, after: { name: row.name, version: 1 } });
      await notify('onVersionCreated', listeners.onVersionCreated, {
        organizationId,
        workflowId: row.id,
        status: row.status,
        version: 1,
        definition,
      });
      return row;
    },

    /**
     * The dry run of `create` (or of `update` when `workflowId` is given): the same parsing, compilation and checks,
     * subworkflow references included, and nothing stored, audited or announced. Answers the definition as it would be
     * saved (derived entry and exit points, defaults applied), or throws the same 400/422 the save would.
     */
    async validate(organizationId: string, body: unknown, workflowId?: string): Promise<{ name: string | null; definition: StoredDefinition }> {
      const input = parseBody(body, workflowId ? 'update' : 'create');
      if (!workflowId) {
        if (!input.name) throw new AppError('VALIDATION_ERROR', 'invalid body', [{ path: 'body.name', problem: 'required' }]);
        return { name: input.name, definition: await compile(input.definition!, input.dagPath, { id: null, organizationId }) };
      }
      const current = await get(organizationId, workflowId);
      const merged = mergeDefinition(input.definition ?? {}, current.definition);
      return { name: input.name ?? null, definition: await compile(merged, input.dagPath, { id: workflowId, organizationId }) };
    },

    get,

    async list(
      organizationId: string,
      query: { status?: WorkflowStatus; tag?: string; category?: string; limit: number; cursor?: string },
    ): Promise<Page<Serialized>> {
      const position = decodeCursorOrThrow(query.cursor);
      const after = position ? { createdAt: position.sort, id: position.id } : undefined;
      const rows = await listWorkflows(db, organizationId, { ...query, after, limit: query.limit + 1 });
      const data = rows.slice(0, query.limit);
      const last = data[data.length - 1];
      return {
        data: data.map(({ cursor_at: _c, ...row }) => row),
        nextCursor: rows.length > query.limit && last ? encodeCursor({ sort: last.cursor_at, id: last.id }) : null,
      };
    },

    async update(organizationId: string, actor: WorkflowActor, id: string, body: unknown): Promise<Serialized> {
      const input = parseBody(body, 'update');
      const current = await get(organizationId, id);
      assertCanManage(actor, current);
      if (current.status === 'archived') throw new AppError('INVALID_STATE', 'archived workflows are read-only');
      let definition: StoredDefinition | null = null;
      if (input.definition) {
        definition = await compile(mergeDefinition(input.definition, current.definition), input.dagPath, { id, organizationId });
        if (!definitionChanged(definition, current.definition)) definition = null;
      }
      const metadata = input.metadata ?? current.metadata;
      const version = await db.transaction(async (trx) => {
        const locked = await lockWorkflow(trx, organizationId, id);
        if (!locked) throw notFound('workflow');
        if (locked.status === 'archived') throw new AppError('INVALID_STATE', 'archived workflows are read-only');
        const next = definition ? locked.current_version + 1 : locked.current_version;
        if (definition) {
          await insertVersion(trx, { workflowId: id, organizationId, version: next, definition, createdBy: actor.userId });
        }
        await updateWorkflowRow(trx, organizationId, id, {
          name: input.name ?? locked.name,
          description: input.description ?? locked.description,
          metadata,
          ...metadataColumns(metadata),
          current_version: next,
        });
        await recordAudit(trx, {
          organizationId,
          actor: actor.audit,
          action: 'workflow.updated',
          target: { type: 'workflow', id },
          before: { name: locked.name, version: locked.current_version },
          after: { name: input.name ?? locked.name, version: next },
        });
        return next;
      });
      const updated = await get(organizationId, id);
      if (definition) {
        await notify('onVersionCreated', listeners.onVersionCreated, {
          organizationId,
          workflowId: id,
          status: updated.status,
          version,
          definition,
        });
      }
      return updated;
    },

    async transition(organizationId: string, actor: WorkflowActor, id: string, to: WorkflowStatus): Promise<Serialized> {
      const current = await get(organizationId, id);
      assertCanManage(actor, current);
      const from = await db.transaction(async (trx) => {
        const locked = await lockWorkflow(trx, organizationId, id);
        if (!locked) throw notFound('workflow');
        if (!TRANSITIONS[locked.status].includes(to)) {
          throw new AppError(
            'INVALID_STATE',
            locked.status === 'archived'
              ? 'archived workflows are final'
              : `cannot go from ${locked.status} to ${to} (allowed: ${TRANSITIONS[locked.status].join(', ')})`,
          );
        }
        await updateWorkflowRow(trx, organizationId, id, { status: to });
        await recordAudit(trx, { organizationId, actor: actor.audit, action: 'workflow.status_changed', target: { type: 'workflow', id }, before: { status: locked.status }, after: { status: to } });
        return locked.status;
      });
      const updated = await get(organizationId, id);
      await notify('onStatusChange', listeners.onStatusChange, {
        organizationId,
        workflowId: id,
        from,
        to,
        version: updated.current_version,
        definition: updated.definition,
      });
      return updated;
    },

    async remove(organizationId: string, actor: WorkflowActor, id: string): Promise<void> {
      const current = await get(organizationId, id);
      assertCanManage(actor, current);
      const open = await countOpenRuns(db, organizationId, id);
      if (open > 0) {
        throw new AppError('INVALID_STATE', `the workflow has ${open} open run(s); cancel them (or archive the workflow) first`);
      }
      if (!(await deleteWorkflow(db, organizationId, id))) throw notFound('workflow');
      await recordAudit(db, { organizationId, actor: actor.audit, action: 'workflow.deleted', target: { type: 'workflow', id }, before: { name: current.name, version: current.current_version } });
      await notify('onDeleted', listeners.onDeleted, { organizationId, workflowId: id });
    },

    async listVersions(
      organizationId: string,
      id: string,
      query: { limit: number; cursor?: string },
    ): Promise<Page<WorkflowVersionRow>> {
      await get(organizationId, id);
      const position = decodeCursorOrThrow(query.cursor, 'version');
      const before = position ? Number(position.sort) : undefined;
      const rows = await listVersions(db, organizationId, id, { beforeVersion: before, limit: query.limit + 1 });
      const data = rows.slice(0, query.limit);
      const last = data[data.length - 1];
      return {
        data,
        nextCursor: rows.length > query.limit && last ? encodeCursor({ sort: String(last.version), id }) : null,
      };
    },

    async getVersion(organizationId: string, id: string, version: number): Promise<WorkflowVersionRow> {
      const row = await findVersion(db, organizationId, id, version);
      if (!row) throw notFound('workflow version');
      return row;
    },
  };
}

export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
