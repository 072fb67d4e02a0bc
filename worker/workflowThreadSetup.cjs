'use strict';
// Preloaded (NODE_OPTIONS --require) into Temporal's workflow threads by worker/workflowStackTraces.ts, and only
// there. The SDK records a stack trace per workflow promise through a hook it creates with
// `v8.promiseHooks.createHook` in `setPromiseHook` (vm-shared.js), and leaves it out when that call throws. Only
// that caller is refused: Node's own async_hooks create their promise hooks through the same function, and
// AsyncLocalStorage (which carries the SDK's cancellation scopes) depends on them.
// Plain CommonJS on purpose: a workflow thread loads it before any TypeScript loader could be in place.
const { isMainThread } = require('node:worker_threads');

const SDK_STACK_TRACE_HOOK = /\bsetPromiseHook\b[^\n]*[\\/]vm-shared\.[jt]s:/; // .ts where source maps apply

if (!isMainThread) {
  const { promiseHooks } = require('node:v8');
  const createHook = promiseHooks.createHook;
  promiseHooks.createHook = function createHookExceptForWorkflowStackTraces(hooks) {
    if (SDK_STACK_TRACE_HOOK.test(new Error().stack ?? '')) {
      throw new Error('workflow stack traces are off in this thread (WORKER_WORKFLOW_STACK_TRACES=false)');
    }
    return createHook.call(this, hooks);
  };
}
