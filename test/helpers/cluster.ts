import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * The real Temporal cluster of `scripts/cluster` (docs/scaling.md#running-on-a-temporal-cluster), as the fault tests
 * in test/integration/cluster/ drive it: they run only under `scripts/test --cluster`, which brings the cluster up,
 * points TEMPORAL_ADDRESS at its frontend and sets LOOM_TEST_CLUSTER=1. The processes are killed and started by the
 * script itself (its pid files, its start order and health checks): this is only the way to call it.
 */

export const CLUSTER_PROCESSES = ['pg', 'frontend', 'history1', 'history2', 'matching1', 'matching2', 'worker'] as const;
export type ClusterProcess = (typeof CLUSTER_PROCESSES)[number];

/** True under `scripts/test --cluster`: the suite's Temporal is the cluster, whose processes a test may kill. */
export const onCluster = process.env.LOOM_TEST_CLUSTER === '1';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'cluster');

function cluster(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [SCRIPT, ...args], { env: process.env, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(`scripts/cluster ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(`${stdout}${stderr}`);
    });
  });
}

/** SIGKILL to the process's whole group: a crash, with no chance to hand anything over. */
export const killClusterProcess = (name: ClusterProcess): Promise<string> => cluster(['kill', name], 30_000);

/** Starts the process again and resolves once it serves (a history host: once it holds shards again). */
export const startClusterProcess = (name: ClusterProcess): Promise<string> => cluster(['start', name], 150_000);

/** Starts whatever of the cluster is not running (after a failed test), each waited for. */
export async function restoreCluster(): Promise<void> {
  for (const name of CLUSTER_PROCESSES) await startClusterProcess(name);
}
