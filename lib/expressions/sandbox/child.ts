import { ExpressionError, internalFailure } from '../errors';
import { runTask } from './engines';
import { ResultInFile, type SandboxReply, type SandboxRequest } from './protocol';

/**
 * Entry of a sandbox process (started by pool.ts): evaluates one task at a time and answers with plain data or a
 * clear error. The pool kills this process when a task passes its deadline, which stops JavaScript wherever it is
 * (a JSONata step, a CEL comprehension, a regex inside CEL's library). A task that makes V8 abort (an array past
 * its maximum size, the heap cap) ends only this process; the pool answers for it and starts a fresh one.
 */
const send = process.send?.bind(process);
if (!send) throw new Error('lib/expressions/sandbox/child runs only as a child process with an IPC channel');

// The pool's process is gone: nothing can ask for work or read an answer any more.
process.on('disconnect', () => process.exit(0));
// The pool alone ends this process (SIGKILL, or closing the channel). Ctrl-C in a terminal or a service manager's
// SIGTERM reaches the whole process group: the parent may still be draining, and its tasks here must finish.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);

process.on('message', (request: SandboxRequest) => {
  const { id } = request;
  send({ id, started: true } satisfies SandboxReply); // the deadline starts now, not while the data was passing
  const fail = (err: unknown): void => {
    const failure = err instanceof ExpressionError ? err : internalFailure(err);
    send({ id, ok: false, code: failure.code, message: failure.message } satisfies SandboxReply);
  };
  runTask(request).then((result) => {
    try {
      send((result instanceof ResultInFile ? { id, ok: true, written: result.chars } : { id, ok: true, result }) satisfies SandboxReply);
    } catch (err) {
      fail(err); // a result that cannot be serialized (engines return plain JSON; this is a safety net)
    }
  }, fail);
});
send({ ready: true } satisfies SandboxReply);
