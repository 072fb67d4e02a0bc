import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import workerThreads from 'node:worker_threads';
import { disableWorkflowStackTraces } from '../../worker/workflowStackTraces';

/**
 * Which threads lose promise hooks: only those started from a file named like the SDK's workflow thread
 * (…/workflow/workflow-worker-thread.js), only while disabled, and their other settings (environment) are kept.
 */
const PROBE = `
const { parentPort } = require('node:worker_threads');
let hooks = 'available';
try { require('node:v8').promiseHooks.createHook({ init() {} })(); } catch (err) { hooks = err.message; }
parentPort.postMessage({ hooks, marker: process.env.STACK_TRACES_TEST_MARKER ?? null });
`;

let dir: string;
let sdkLikeThread: string;
let otherThread: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loom-stack-traces-'));
  mkdirSync(path.join(dir, 'workflow'));
  sdkLikeThread = path.join(dir, 'workflow', 'workflow-worker-thread.js');
  otherThread = path.join(dir, 'other-thread.js');
  writeFileSync(sdkLikeThread, PROBE);
  writeFileSync(otherThread, PROBE);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function probe(file: string, env?: NodeJS.ProcessEnv): Promise<{ hooks: string; marker: string | null }> {
  return new Promise((resolve, reject) => {
    const thread = new workerThreads.Worker(file, env ? { env } : undefined);
    thread.once('message', (message: { hooks: string; marker: string | null }) => {
      resolve(message);
      void thread.terminate();
    });
    thread.once('error', reject);
  });
}

test('the SDK workflow thread started while disabled has no promise hooks; other threads keep them', async () => {
  const restore = disableWorkflowStackTraces();
  try {
    expect((await probe(sdkLikeThread)).hooks).toMatch(/promise hooks are off in this workflow thread/);
    expect((await probe(otherThread)).hooks).toBe('available');
    // An environment given to the thread is kept, next to the preload.
    const withEnv = await probe(sdkLikeThread, { ...process.env, STACK_TRACES_TEST_MARKER: 'kept' });
    expect(withEnv).toEqual({ hooks: expect.stringMatching(/promise hooks are off/), marker: 'kept' });
  } finally {
    restore();
  }
  expect((await probe(sdkLikeThread)).hooks).toBe('available');
});
