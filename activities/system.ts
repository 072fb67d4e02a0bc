import type { ActivityDeps } from './deps';

/** Activities that prove the worker path: they write to PostgreSQL. */
export function createSystemActivities(deps: ActivityDeps) {
  return {
    async recordSystemCheck(input: { id: string; note: string }): Promise<{ id: string; createdAt: string }> {
      // Idempotent under retries: the workflow supplies the id.
      const [row] = await deps.db('system_checks')
        .insert({ id: input.id, note: input.note })
        .onConflict('id')
        .merge({ note: input.note })
        .returning(['id', 'created_at']);
      return { id: row.id as string, createdAt: new Date(row.created_at as Date).toISOString() };
    },
  };
}
