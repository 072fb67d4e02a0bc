import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import workerThreads from 'node:worker_threads';
import { disableWorkflowStackTraces } from '../../worker/workflowStackTraces';

/**
 * Which threads lose which promise hook: in a thread started from a file named like the SDK's workflow thread
 * (…/workflow/workflow-worker-thread.js), while disabled, only the hook created by a function named like the SDK's
 * (`setPromiseHook` in …/vm-shared.js) is refused; Node's own (AsyncLocalStorage, which carries the SDK's
 * cancellation scopes) keep working, and so does everything in other threads. The thread's environment is kept.
 */
const SDK_LIKE_HOOK = `
exports.setPromiseHook = function setPromiseHook() {
  try { require('node:v8').promiseHooks.createHook({ init() {} })(); return 'available'; } catch (err) { return err.message; }
};
`;
const PROBE = `
const { parentPort } = require('node:worker_threads');
const { AsyncLocalStorage } = require('node:async_hooks');
const path = require('node:path');
const sdkHook = require(path.join(__dirname, 'vm-shared.js')).setPromiseHook();
let otherHook = 'available';
try { require('node:v8').promiseHooks.createHook({ init() {} })(); } catch (err) { otherHook = err.message; }
const als = new AsyncLocalStorage();
als.run('kept across awaits', async () => {
  await null;
  await new Promise((resolve) => setTimeout(resolve, 1));
  parentPort.postMessage({ sdkHook, otherHook, als: als.getStore(), marker: process.env.STACK_TRACES_TEST_MARKER ?? null });
});
`;

interface ProbeResult {
  sdkHook: string;
  otherHook: string;
  als: string | undefined;
  marker: string | null;
}

let dir: string;
let sdkLikeThread: string;
let otherThread: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loom-stack-traces-'));
  mkdirSync(path.join(dir, 'workflow'));
  sdkLikeThread = path.join(dir, 'workflow', 'workflow-worker-thread.js');
  otherThread = path.join(dir, 'workflow', 'other-thread.js');
  writeFileSync(path.join(dir, 'workflow', 'vm-shared.js'), SDK_LIKE_HOOK);
  writeFileSync(sdkLikeThread, PROBE);
  writeFileSync(otherThread, PROBE);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function probe(file: string, env?: NodeJS.ProcessEnv): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const thread = new workerThreads.Worker(file, env ? { env } : undefined);
    thread.once('message', (message: ProbeResult) => {
      resolve(message);
      void thread.terminate();
    });
    thread.once('error', reject);
  });
}

const untouched = { sdkHook: 'available', otherHook: 'available', als: 'kept across awaits', marker: null };

test("while disabled, the SDK workflow thread cannot create the SDK's stack trace hook; nothing else changes", async () => {
  const restore = disableWorkflowStackTraces();
  try {
    expect(await probe(sdkLikeThread)).toEqual({ ...untouched, sdkHook: expect.stringMatching(/workflow stack traces are off in this thread/) });
    expect(await probe(otherThread)).toEqual(untouched);
    // An environment given to the thread is kept, next to the preload.
    const withEnv = await probe(sdkLikeThread, { ...process.env, STACK_TRACES_TEST_MARKER: 'kept' });
    expect(withEnv).toEqual({ ...untouched, sdkHook: expect.stringMatching(/are off/), marker: 'kept' });
  } finally {
    restore();
  }
  expect(await probe(sdkLikeThread)).toEqual(untouched);
});
