import type { ActivityDeps } from './deps';
import { createSystemActivities } from './system';

/**
 * Every activity the worker registers. Workflows import the *type* of this object only, and call activities
 * through proxyActivities, so no side-effecting code ever enters the workflow bundle.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
