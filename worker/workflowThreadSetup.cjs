'use strict';
// Preloaded (NODE_OPTIONS --require) into Temporal's workflow threads by worker/workflowThreads.ts, and only
// there; `workerData` says what it does: `loomCallWatch` (isolateWatch.ts, below) and `loomStackTracesOff`. The SDK
// records a stack trace per workflow promise through a hook it creates with
// `v8.promiseHooks.createHook` in `setPromiseHook` (vm-shared.js), and leaves it out when that call throws. Only
// that caller is refused: Node's own async_hooks create their promise hooks through the same function, and
// AsyncLocalStorage (which carries the SDK's cancellation scopes) depends on them.
// Plain CommonJS on purpose: a workflow thread loads it before any TypeScript loader could be in place.
const { isMainThread } = require('node:worker_threads');

const SDK_STACK_TRACE_HOOK = /\bsetPromiseHook\b[^\n]*[\\/]vm-shared\.[jt]s:/; // .ts where source maps apply

// The thread's console (the SDK warns there that stack traces are off) writes JSON lines like the worker's pino
// logger: level label, ISO time, pid, hostname, name, msg (docs/operating.md#logs).
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

function jsonConsole() {
  const os = require('node:os');
  const util = require('node:util');
  const threshold = LEVELS[process.env.LOG_LEVEL] ?? LEVELS.info;
  const line = (level, stream) =>
    function (...args) {
      if (LEVELS[level] < threshold) return;
      const entry = { level, time: new Date().toISOString(), pid: process.pid, hostname: os.hostname(), name: 'worker', thread: 'workflow', msg: util.format(...args) };
      stream.write(`${JSON.stringify(entry)}\n`);
    };
  console.log = console.info = line('info', process.stdout);
  console.debug = line('debug', process.stdout);
  console.trace = line('trace', process.stdout);
  console.warn = line('warn', process.stdout);
  console.error = line('error', process.stdout);
}

const { workerData } = require('node:worker_threads');
const setup = (!isMainThread && workerData && typeof workerData === 'object' && workerData) || {};

// The SDK calls into a workflow's V8 context with `script.runInContext(context, { timeout })`, and Node starts a
// watchdog thread for every such call: ~350 µs each, a dozen calls per run (isolateWatch.ts). Here the calls run
// without it, and each one marks itself in a buffer shared with the worker's main thread, which terminates this
// thread when one call outlasts the timeout. Two writes per call, instead of a thread.
if (setup.loomCallWatch instanceof SharedArrayBuffer) {
  const vm = require('node:vm');
  const marks = new Int32Array(setup.loomCallWatch);
  const runInContext = vm.Script.prototype.runInContext;
  let depth = 0;
  vm.Script.prototype.runInContext = function runInContextWatched(context, options) {
    if (!options || options.timeout === undefined) return runInContext.call(this, context, options);
    const rest = { ...options };
    delete rest.timeout; // watched by the main thread instead
    // Calls nest (a call's code may call into the context again): the outermost one is what is timed.
    if (depth++ === 0) {
      Atomics.add(marks, 0, 1); // call number: the main thread sees a new call even when it samples two alike
      Atomics.store(marks, 1, 1); // in a call
    }
    try {
      return runInContext.call(this, context, rest);
    } finally {
      if (--depth === 0) Atomics.store(marks, 1, 0);
    }
  };
}

if (!isMainThread) jsonConsole();

if (!isMainThread && setup.loomStackTracesOff) {
  const { promiseHooks } = require('node:v8');
  const createHook = promiseHooks.createHook;
  promiseHooks.createHook = function createHookExceptForWorkflowStackTraces(hooks) {
    if (SDK_STACK_TRACE_HOOK.test(new Error().stack ?? '')) {
      throw new Error('workflow stack traces are off in this thread (WORKER_WORKFLOW_STACK_TRACES=false)');
    }
    return createHook.call(this, hooks);
  };
}
