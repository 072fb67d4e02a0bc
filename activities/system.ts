import { upsertSystemCheck } from '../domain/system/queries';
import type { ActivityDeps } from './deps';

/** Activities that prove the worker path: they write to PostgreSQL. */
export function createSystemActivities(deps: ActivityDeps) {
  return {
    async recordSystemCheck(input: { id: string; note: string }): Promise<{ id: string; createdAt: string }> {
      // Idempotent under retries: the workflow supplies the id.
      const row = await upsertSystemCheck(deps.db, input);
      return { id: row.id, createdAt: new Date(row.created_at).toISOString() };
    },
  };
}
