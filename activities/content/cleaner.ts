import type { ActivityDeps } from '../deps';
import { createVectorStore } from '../../lib/vectors';

/**
 * Organization deletion (activities/organizations/cleaners.ts): vectors live in LanceDB, which neither the
 * PostgreSQL cascade nor the removal of `org/<id>/` in MinIO reaches. Idempotent: deleting nothing is fine.
 */
export async function deleteOrganizationVectors(organizationId: string, deps: ActivityDeps): Promise<void> {
  const vectors = createVectorStore(deps.config.content, deps.config.minio);
  try {
    await vectors.deleteOrganization(organizationId);
  } finally {
    await vectors.close();
  }
}
