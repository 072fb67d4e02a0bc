'use strict';
// Preloaded (NODE_OPTIONS --require) into Temporal's workflow threads by worker/workflowStackTraces.ts, and only
// there: without `v8.promiseHooks.createHook` the SDK records no stack trace per workflow promise (see that file).
// Plain CommonJS on purpose: a workflow thread loads it before any TypeScript loader could be in place.
const { isMainThread } = require('node:worker_threads');

if (!isMainThread) {
  const { promiseHooks } = require('node:v8');
  promiseHooks.createHook = () => {
    throw new Error('promise hooks are off in this workflow thread (WORKER_WORKFLOW_STACK_TRACES=false)');
  };
}
