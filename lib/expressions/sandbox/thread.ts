import { parentPort } from 'node:worker_threads';
import { ExpressionError, internalFailure } from '../errors';
import { runTask } from './engines';
import type { SandboxReply, SandboxRequest } from './protocol';

/**
 * Entry of a sandbox thread (started by pool.ts): evaluates one task at a time and answers with plain data or a
 * clear error. The pool terminates this thread when a task passes its deadline, which stops JavaScript wherever
 * it is (a JSONata step, a CEL comprehension, a regex inside CEL's library) and starts a fresh one.
 */
const port = parentPort;
if (!port) throw new Error('lib/expressions/sandbox/thread runs only as a worker thread');

port.on('message', (request: SandboxRequest) => {
  const { id } = request;
  const fail = (err: unknown): void => {
    const failure = err instanceof ExpressionError ? err : internalFailure(err);
    port.postMessage({ id, ok: false, code: failure.code, message: failure.message } satisfies SandboxReply);
  };
  runTask(request).then((result) => {
    try {
      port.postMessage({ id, ok: true, result } satisfies SandboxReply);
    } catch (err) {
      fail(err); // a result that cannot be cloned (engines return plain JSON; this is a safety net)
    }
  }, fail);
});
port.postMessage({ ready: true } satisfies SandboxReply);
