import { Client, Connection } from '@temporalio/client';
import type { Config } from './config';

/**
 * The API's and scripts' one Temporal client. Only `@temporalio/client` is imported outside worker/.
 * The connection is lazy so the API starts (and reports "not ready") while Temporal is still coming up.
 */
export function createTemporalClient(config: Config['temporal']): Client {
  const connection = Connection.lazy({ address: config.address, connectTimeout: '5s' });
  return new Client({ connection, namespace: config.namespace });
}

/** Custom search attributes registered by scripts/services (see docs/operating.md). */
export const SEARCH_ATTRIBUTES = {
  organizationId: 'LoomOrganizationId',
  workflowId: 'LoomWorkflowId',
  workflowVersion: 'LoomWorkflowVersion',
  runKind: 'LoomRunKind',
  trigger: 'LoomTrigger',
} as const;
