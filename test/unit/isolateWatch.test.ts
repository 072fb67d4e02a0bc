import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import workerThreads from 'node:worker_threads';
import { stuckFor, watchWorkflowIsolates } from '../../worker/isolateWatch';

/**
 * The isolate watch (worker/isolateWatch.ts) in real threads: a thread started from a file named like the SDK's
 * workflow thread calls into a V8 context the way the SDK does, `script.runInContext(context, { timeout })`.
 */
const CALLS = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const context = vm.createContext({ n: 0 });
const step = new vm.Script('n += 1');
parentPort.on('message', (message) => {
  if (message === 'calls') {
    for (let i = 0; i < 200; i += 1) step.runInContext(context, { timeout: 5000 });
    const marks = workerData && workerData.loomCallWatch ? Array.from(new Int32Array(workerData.loomCallWatch)) : null;
    parentPort.postMessage({ n: vm.runInContext('n', context), marks });
  }
  if (message === 'spin') {
    try {
      new vm.Script('for (;;) {}').runInContext(context, { timeout: 300 });
    } catch (err) {
      parentPort.postMessage({ spinEnded: err.code });
    }
  }
});
parentPort.postMessage('ready');
`;

let dir: string;
let sdkLikeThread: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loom-isolate-watch-'));
  mkdirSync(path.join(dir, 'workflow'));
  sdkLikeThread = path.join(dir, 'workflow', 'workflow-worker-thread.js');
  writeFileSync(sdkLikeThread, CALLS);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function started(): Promise<workerThreads.Worker> {
  const thread = new workerThreads.Worker(sdkLikeThread);
  await new Promise((resolve) => thread.once('message', resolve));
  return thread;
}

function next(thread: workerThreads.Worker, message: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.postMessage(message);
  });
}

test('without the watch, Node times a call out itself (the SDK behaviour it replaces)', async () => {
  const thread = await started();
  try {
    expect(await next(thread, 'spin')).toEqual({ spinEnded: 'ERR_SCRIPT_EXECUTION_TIMEOUT' });
  } finally {
    await thread.terminate();
  }
});

test('watched, calls run and mark themselves; a thread stuck in one call is terminated and reported', async () => {
  const stuck: { threadId: number; stuckMs: number }[] = [];
  const stop = watchWorkflowIsolates({ timeoutMs: 600, sampleMs: 50, onStuck: (info) => stuck.push(info) });
  try {
    const thread = await started();
    // 200 calls, each counted in the shared buffer, none still in progress.
    expect(await next(thread, 'calls')).toEqual({ n: 200, marks: [200, 0] });
    expect(stuck).toEqual([]);

    // The 300 ms timeout the code asked for is no longer Node's: only the watch ends the endless call.
    const exited = new Promise<number>((resolve) => thread.once('exit', resolve));
    thread.postMessage('spin');
    const code = await exited;
    expect(code).toBe(1);
    expect(stuck).toEqual([{ threadId: expect.any(Number), stuckMs: expect.any(Number) }]);
    expect(stuck[0]!.stuckMs).toBeGreaterThanOrEqual(600);
  } finally {
    stop();
  }
});

test('other threads are left alone', async () => {
  const other = path.join(dir, 'workflow', 'other-thread.js');
  writeFileSync(other, CALLS);
  const stop = watchWorkflowIsolates({ timeoutMs: 600, onStuck: () => undefined });
  try {
    const thread = new workerThreads.Worker(other);
    await new Promise((resolve) => thread.once('message', resolve));
    expect(await next(thread, 'calls')).toEqual({ n: 200, marks: null });
    await thread.terminate();
  } finally {
    stop();
  }
});

describe('the decision', () => {
  test('a thread in the same call since the first look is stuck for the time since', () => {
    let seen = { seenCall: 0, since: 0 };
    seen = stuckFor(seen, 7, true, 1000);
    expect(seen).toEqual({ seenCall: 7, since: 1000, stuckMs: 0 });
    expect(stuckFor(seen, 7, true, 6500)).toEqual({ seenCall: 7, since: 1000, stuckMs: 5500 });
  });

  test('a new call, or none, starts over', () => {
    const seen = { seenCall: 7, since: 1000 };
    expect(stuckFor(seen, 8, true, 6500)).toEqual({ seenCall: 8, since: 6500, stuckMs: 0 });
    expect(stuckFor(seen, 7, false, 6500)).toEqual({ seenCall: 7, since: 0, stuckMs: 0 });
  });
});
