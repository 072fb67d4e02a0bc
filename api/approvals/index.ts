import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { approvalRoutes } from './routes';

/** Approvals of approval nodes and their decisions (docs/runs.md#approval). */
export function createApprovalsDomain(services: Services): Domain {
  return { routes: approvalRoutes(services.nodeApprovals) };
}
