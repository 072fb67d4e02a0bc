import { Context } from '@temporalio/activity';
import { deleteSchedulesWhere } from '../../domain/triggers/schedules';
import type { ActivityDeps } from '../deps';

/** Organization deletion: the Temporal Schedules of its schedule triggers (rows in trigger_schedules have no FK). */
export async function deleteOrganizationSchedules(organizationId: string, deps: ActivityDeps): Promise<void> {
  await deleteSchedulesWhere({ db: deps.db, config: deps.config, temporal: Context.current().client }, { organization_id: organizationId });
}
