import type { ActivityDeps } from '../deps';
import { deleteOrganizationVectors } from '../content/cleaner';
import { cancelOrganizationRuns } from '../runs/cleaner';
import { deleteOrganizationSchedules } from '../triggers/cleaner';

/**
 * Extension point of the organization deletion: every domain that keeps organization data a cascade from
 * `organizations` cannot reach (Temporal schedules and runs, vectors in LanceDB, derived objects outside
 * `org/<id>/`, rows without a foreign key) appends one cleaner here.
 *
 * The deletion workflow runs each cleaner as its own activity, in this order, before it deletes the objects under
 * `org/<id>/` and finally the organization's rows (so a cleaner may still read its rows). Rules for a cleaner:
 * - idempotent: it may run again after a crash or a retry, including after a partial run;
 * - bounded: delete in batches; the step has a 30 minute start-to-close timeout and is heartbeated for you while
 *   `deleteAll` runs (a dead worker is noticed within 10 s and the step retried elsewhere);
 * - throw to retry (transient failures); throw `ApplicationFailure.nonRetryable` only for a bug that retrying cannot fix.
 *
 * Example: `{ name: 'workflows', deleteAll: (organizationId, deps) => deleteWorkflowsOf(deps, organizationId) }`
 */
export interface OrganizationCleaner {
  /** Unique, stable (it names the activity step in the workflow history). */
  name: string;
  deleteAll(organizationId: string, deps: ActivityDeps): Promise<void>;
}

export const organizationCleaners: OrganizationCleaner[] = [
  // Other domains: append your cleaner here (one line each).
  { name: 'content-vectors', deleteAll: deleteOrganizationVectors },
  { name: 'trigger-schedules', deleteAll: deleteOrganizationSchedules },
  { name: 'open-runs', deleteAll: cancelOrganizationRuns },
];
