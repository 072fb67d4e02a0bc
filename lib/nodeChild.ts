import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import path from 'node:path';

/**
 * Starts one of this code's modules as a Node child process that handles tenants' data (the expression sandbox,
 * the file readers): compiled JavaScript in production, TypeScript through tsx's CommonJS hook under tsx and jest,
 * chosen by the caller's own extension. The child gets an empty environment (no database URLs or secrets), a V8
 * heap cap, an IPC channel, and runs under `ulimit -c 0` (through sh, whose `exec` leaves Node itself as the child):
 * a tenant whose input makes V8 abort again and again must not fill the disk with core dumps of a capped heap.
 */
export function spawnNodeChild(
  callerFile: string,
  moduleName: string,
  options: { heapMb: number; stderr: 'inherit' | 'pipe'; serialization: 'json' | 'advanced' },
): ChildProcess {
  const typescript = path.extname(callerFile) === '.ts';
  const entry = path.join(path.dirname(callerFile), `${moduleName}${typescript ? '.ts' : '.js'}`);
  const node = [process.execPath, ...(typescript ? ['--require', require.resolve('tsx/cjs')] : []), `--max-old-space-size=${options.heapMb}`, entry];
  const stdio: StdioOptions = ['ignore', 'ignore', options.stderr, 'ipc'];
  return spawn('/bin/sh', ['-c', 'ulimit -c 0; exec "$@"', moduleName, ...node], { env: {}, stdio, serialization: options.serialization });
}
