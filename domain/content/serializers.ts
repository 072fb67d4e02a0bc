import type { ContentRow, JobRow, StepRow, VersionRow } from './queries';

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function serializeContent(row: ContentRow) {
  return {
    id: row.id,
    organizationID: row.organization_id,
    title: row.title,
    filename: row.filename,
    mimeType: row.mime_type,
    mediaType: row.media_type,
    size: Number(row.size_bytes),
    sha256: row.sha256,
    tags: row.tags ?? [],
    metadata: row.metadata ?? {},
    version: row.current_version,
    status: row.processing_status,
    embedding:
      row.embedding_model && row.embedding_dimensions && row.embedded_at
        ? { model: row.embedding_model, dimensions: row.embedding_dimensions, embeddedAt: iso(row.embedded_at)! }
        : null,
    createdBy: row.created_by ?? row.created_by_api_key_id,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export function serializeVersion(row: VersionRow) {
  // Object keys stay internal: derived files are fetched through the download endpoint with `variant`.
  const derived = Object.fromEntries(
    Object.entries(row.derived ?? {}).map(([name, file]) => {
      const { key: _key, ...rest } = file;
      void _key;
      return [name, rest];
    }),
  );
  return {
    version: row.version,
    filename: row.filename,
    mimeType: row.mime_type,
    declaredMimeType: row.declared_mime_type,
    mediaType: row.media_type,
    size: Number(row.size_bytes),
    sha256: row.sha256,
    extracted: row.extracted ?? {},
    derived,
    createdBy: row.created_by,
    createdAt: iso(row.created_at)!,
  };
}

export function serializeStep(row: StepRow) {
  return {
    name: row.name,
    state: row.state,
    attempts: row.attempts,
    error: row.error,
    output: row.output ?? null,
    startedAt: iso(row.started_at),
    completedAt: iso(row.completed_at),
  };
}

export function serializeJob(job: JobRow, steps: StepRow[]) {
  return {
    id: job.id,
    version: job.version,
    status: job.status,
    trigger: job.trigger,
    workflowId: job.workflow_id,
    createdAt: iso(job.created_at)!,
    startedAt: iso(job.started_at),
    completedAt: iso(job.completed_at),
    steps: steps.map(serializeStep),
  };
}
