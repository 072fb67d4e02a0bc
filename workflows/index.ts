// The worker bundles this file: every workflow type is exported from here.
export { systemCheckWorkflow } from './system';
export {
  organizationCreatedWorkflow,
  organizationDeletionWorkflow,
  organizationPaymentFailedWorkflow,
  auditRetentionPurgeWorkflow,
  organizationExportWorkflow,
  organizationImportWorkflow,
} from './organizations';
export { dagRunWorkflow } from './runs/dagRun';
export { flowGateWorkflow } from './flow/gate';
export { loopBatchWorkflow } from './runs/loop';
export { purgeDeadLettersWorkflow } from './runs/purge';
export { contentProcessingWorkflow, contentDeletionWorkflow, contentReembeddingWorkflow } from './content';
export { scheduledRunWorkflow } from './triggers/scheduled';
export { eventDispatcherWorkflow, webhookDeliveryWorkflow } from './triggers/events';
export { toolTestWorkflow } from './tools/testRun';
