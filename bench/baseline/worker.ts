import { NativeConnection, Worker } from '@temporalio/worker';
import { disableWorkflowStackTraces } from '../../worker/workflowStackTraces';
import { baselineActivities, closeBaselineDatabase, recordedRunActivities, stampActivities } from './activities';

/**
 * The baseline worker: default Worker options (as the product's worker uses), its own task queue, its own
 * prebuilt bundle of bench/baseline/workflows.ts. Reads its settings from the environment the bench gives it.
 * Like the product's worker by default, it records no per-promise workflow stack traces (worker/workflowStackTraces.ts),
 * so the two sides differ only in their workflow and activities.
 */
async function main(): Promise<void> {
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const taskQueue = process.env.BENCH_BASELINE_TASK_QUEUE;
  const bundle = process.env.BENCH_BASELINE_BUNDLE;
  if (!taskQueue || !bundle) throw new Error('BENCH_BASELINE_TASK_QUEUE and BENCH_BASELINE_BUNDLE are required');
  disableWorkflowStackTraces();
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue,
    workflowBundle: { codePath: bundle },
    activities: { ...baselineActivities, ...stampActivities, ...recordedRunActivities },
    shutdownGraceTime: '10s',
  });
  console.log('baseline worker started');
  await worker.run();
  await connection.close();
  await closeBaselineDatabase();
}

main().catch((err: unknown) => {
  console.error(`baseline worker: ${(err as Error).message}`);
  process.exit(1);
});
