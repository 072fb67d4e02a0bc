import type { Db } from '../../db/knex';
import { queryNamed } from '../../db/namedStatement';
import { isUuid } from '../../lib/ids';
import type { CompiledWorkflow, StoredDefinition, WorkflowStatus } from '../../lib/dag/model';

/** All SQL of the workflows domain. Every function takes the organization id: tenants never see each other. */

export interface WorkflowRow {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  status: WorkflowStatus;
  current_version: number;
  tags: string[];
  category: string | null;
  metadata: Record<string, unknown>;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface WorkflowVersionRow {
  workflow_id: string;
  organization_id: string;
  version: number;
  definition: StoredDefinition;
  created_by: string | null;
  created_at: Date;
}

/** A workflow row joined with the definition of its current version. */
export type WorkflowWithDefinition = WorkflowRow & { definition: StoredDefinition };

export interface LoadedWorkflowVersion {
  workflow: { id: string; organizationId: string; name: string; status: WorkflowStatus; currentVersion: number };
  /** The organization's name, for Temporal Web's memo (read in the same query). */
  organizationName: string;
  compiled: CompiledWorkflow;
}


/** The columns a run start needs, in one round trip (workflow, version and organization name). */
const LOAD_VERSION = `
  SELECT w.id, w.organization_id, w.name, w.status, w.current_version, v.version, v.definition, o.name AS organization_name
    FROM workflows w
    JOIN workflow_versions v ON v.workflow_id = w.id AND v.organization_id = w.organization_id
    JOIN organizations o ON o.id = w.organization_id
   WHERE w.id = $1 AND w.organization_id = $2 AND v.version = COALESCE($3::int, w.current_version)`;

type LoadedRow = Pick<WorkflowRow, 'id' | 'organization_id' | 'name' | 'status' | 'current_version'> &
  Pick<WorkflowVersionRow, 'version' | 'definition'> & { organization_name: string };

/**
 * The version a run executes: `version` when given, else the current one. Null for an unknown id, another
 * organization's workflow, or a version that does not exist. Used by the runs domain. Every run start, webhook,
 * schedule and subworkflow node reads its definition here, so it runs as a named statement (db/namedStatement.ts):
 * through knex's builder, with its join callback, it cost ~170 µs of client CPU per call, ~80 µs as a named statement.
 */
export async function loadWorkflowVersion(
  db: Db,
  organizationId: string,
  workflowId: string,
  version?: number,
): Promise<LoadedWorkflowVersion | null> {
  if (!isUuid(workflowId) || !isUuid(organizationId)) return null;
  const [row] = await queryNamed<LoadedRow>(db, 'workflow_version_load', LOAD_VERSION, [workflowId, organizationId, version ?? null]);
  if (!row) return null;
  const def = row.definition;
  return {
    workflow: {
      id: row.id,
      organizationId: row.organization_id,
      name: row.name,
      status: row.status,
      currentVersion: row.current_version,
    },
    organizationName: row.organization_name,
    compiled: {
      workflowId: row.id,
      organizationId: row.organization_id,
      version: row.version,
      name: row.name,
      dag: def.dag,
      parameters: def.parameters,
      errorHandling: def.errorHandling,
      tools: def.tools,
      triggers: def.triggers,
      ...(def.flow ? { flow: def.flow } : {}),
    },
  };
}

export async function insertWorkflow(
  db: Db,
  values: {
    organizationId: string;
    name: string;
    description: string;
    tags: string[];
    category: string | null;
    metadata: Record<string, unknown>;
    createdBy: string | null;
    definition: StoredDefinition;
  },
): Promise<WorkflowWithDefinition> {
  return db.transaction(async (trx) => {
    const [workflow] = await trx<WorkflowRow>('workflows')
      .insert({
        organization_id: values.organizationId,
        name: values.name,
        description: values.description,
        status: 'draft',
        current_version: 1,
        tags: values.tags,
        category: values.category,
        metadata: values.metadata,
        created_by: values.createdBy,
      })
      .returning('*');
    await trx('workflow_versions').insert({
      workflow_id: workflow!.id,
      organization_id: values.organizationId,
      version: 1,
      definition: JSON.stringify(values.definition),
      created_by: values.createdBy,
    });
    return { ...workflow!, definition: values.definition };
  });
}

export async function findWorkflow(
  db: Db,
  organizationId: string,
  workflowId: string,
): Promise<WorkflowWithDefinition | null> {
  if (!isUuid(workflowId)) return null;
  const row = await db('workflows as w')
    .join('workflow_versions as v', function joinCurrent() {
      this.on('v.workflow_id', 'w.id').andOn('v.version', 'w.current_version');
    })
    .where({ 'w.id': workflowId, 'w.organization_id': organizationId })
    .first('w.*', 'v.definition');
  return (row as WorkflowWithDefinition | undefined) ?? null;
}

const CURSOR_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

export interface WorkflowListFilter {
  status?: WorkflowStatus;
  tag?: string;
  category?: string;
  /** keyset position: rows strictly after (created_at, id) descending */
  after?: { createdAt: string; id: string };
  limit: number;
}

export async function listWorkflows(
  db: Db,
  organizationId: string,
  filter: WorkflowListFilter,
): Promise<(WorkflowWithDefinition & { cursor_at: string })[]> {
  const q = db('workflows as w')
    .join('workflow_versions as v', function joinCurrent() {
      this.on('v.workflow_id', 'w.id').andOn('v.version', 'w.current_version');
    })
    .where('w.organization_id', organizationId)
    // The cursor needs created_at at full (microsecond) precision: a JavaScript Date would round it.
    .select('w.*', 'v.definition', db.raw(`to_char(w.created_at AT TIME ZONE 'UTC', ${CURSOR_FORMAT}) AS cursor_at`))
    .orderBy([
      { column: 'w.created_at', order: 'desc' },
      { column: 'w.id', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.status) q.andWhere('w.status', filter.status);
  if (filter.tag) q.andWhereRaw('w.tags @> ?::text[]', [[filter.tag]]);
  if (filter.category) q.andWhere('w.category', filter.category);
  if (filter.after) {
    q.andWhereRaw('(w.created_at, w.id) < (?::timestamptz, ?::uuid)', [filter.after.createdAt, filter.after.id]);
  }
  return (await q) as (WorkflowWithDefinition & { cursor_at: string })[];
}

/** Locks the workflow row for an update in `trx`. */
export async function lockWorkflow(db: Db, organizationId: string, workflowId: string): Promise<WorkflowRow | null> {
  if (!isUuid(workflowId)) return null;
  const row = await db<WorkflowRow>('workflows')
    .where({ id: workflowId, organization_id: organizationId })
    .forUpdate()
    .first();
  return row ?? null;
}

export async function updateWorkflowRow(
  db: Db,
  organizationId: string,
  workflowId: string,
  patch: Partial<
    Pick<WorkflowRow, 'name' | 'description' | 'status' | 'current_version' | 'tags' | 'category' | 'metadata'>
  >,
): Promise<WorkflowRow> {
  const [row] = (await db('workflows')
    .where({ id: workflowId, organization_id: organizationId })
    .update({ ...patch, updated_at: db.fn.now() })
    .returning('*')) as WorkflowRow[];
  return row!;
}

export async function insertVersion(
  db: Db,
  values: { workflowId: string; organizationId: string; version: number; definition: StoredDefinition; createdBy: string | null },
): Promise<void> {
  await db('workflow_versions').insert({
    workflow_id: values.workflowId,
    organization_id: values.organizationId,
    version: values.version,
    definition: JSON.stringify(values.definition),
    created_by: values.createdBy,
  });
}

export async function findVersion(
  db: Db,
  organizationId: string,
  workflowId: string,
  version: number,
): Promise<WorkflowVersionRow | null> {
  if (!isUuid(workflowId)) return null;
  const row = await db<WorkflowVersionRow>('workflow_versions')
    .where({ workflow_id: workflowId, organization_id: organizationId, version })
    .first();
  return row ?? null;
}

export async function listVersions(
  db: Db,
  organizationId: string,
  workflowId: string,
  options: { beforeVersion?: number; limit: number },
): Promise<WorkflowVersionRow[]> {
  const q = db<WorkflowVersionRow>('workflow_versions')
    .where({ workflow_id: workflowId, organization_id: organizationId })
    .orderBy('version', 'desc')
    .limit(options.limit);
  if (options.beforeVersion !== undefined) q.andWhere('version', '<', options.beforeVersion);
  return q;
}

export async function deleteWorkflow(db: Db, organizationId: string, workflowId: string): Promise<boolean> {
  if (!isUuid(workflowId)) return false;
  const count = await db('workflows').where({ id: workflowId, organization_id: organizationId }).delete();
  return count > 0;
}

/** Subworkflow checks: the organization and current definition of each referenced workflow id. */
export async function findWorkflowsForReference(
  db: Db,
  workflowIds: string[],
): Promise<{ id: string; organization_id: string; definition: StoredDefinition }[]> {
  const ids = workflowIds.filter((id) => isUuid(id));
  if (ids.length === 0) return [];
  return db('workflows as w')
    .join('workflow_versions as v', function joinCurrent() {
      this.on('v.workflow_id', 'w.id').andOn('v.version', 'w.current_version');
    })
    .whereIn('w.id', ids)
    .select('w.id', 'w.organization_id', 'v.definition');
}

/** Runs still open (pending or running) of a workflow: a workflow with open runs is not deleted under them. */
export async function countOpenRuns(db: Db, organizationId: string, workflowId: string): Promise<number> {
  const row = await db('workflow_runs')
    .where({ organization_id: organizationId, workflow_id: workflowId })
    .whereIn('status', ['pending', 'running'])
    .count<{ count: string }[]>({ count: '*' })
    .first();
  return Number(row?.count ?? 0);
}

/** The names of these workflows of the organization, by id (run lists show them). */
export async function workflowNames(db: Db, organizationId: string, workflowIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(workflowIds)];
  if (!ids.length) return new Map();
  const rows: { id: string; name: string }[] = await db('workflows').where({ organization_id: organizationId }).whereIn('id', ids).select('id', 'name');
  return new Map(rows.map((r) => [r.id, r.name]));
}
