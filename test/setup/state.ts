import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
// Per jest process (global setup and teardown share it): two jest runs in one working tree at once must not
// read each other's state, or one run's teardown drops the other's database and bucket. Test files run in jest's
// worker processes, whose pids differ: they read what they need from the environment global setup exports.
export const STATE_FILE = path.join(REPO_ROOT, '.data', 'test', `current-run-${process.pid}.json`);

export interface TestState {
  runId: string;
  dbName: string;
  adminDbUrl: string;
  bucket: string;
  dir: string;
  workerPid: number;
  /** The run's task queue and workflow bundle: teardown replays the executions with them. */
  taskQueue: string;
  bundlePath: string;
}

export function readState(): TestState {
  return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as TestState;
}

/** Waits until a log file shows a line, failing fast when the process died. */
export async function waitForLine(
  file: string,
  pattern: RegExp,
  timeoutMs: number,
  exitCode: () => number | null,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (pattern.test(text)) return;
    if (exitCode() !== null) throw new Error(`process exited (${exitCode()}) before ${pattern}; see ${file}:\n${text.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${pattern} in ${file}`);
}
