import type { AppDeps } from '../../domain/deps';
import { checkNoOpenTransaction, guardTransactions } from '../../lib/db/transactionGuard';

/**
 * Every API the tests start runs with the transaction guard (lib/db/transactionGuard.ts): a query through `db`
 * inside an open transaction, a nested `db.transaction`, or mail, Temporal or MinIO calls inside one throw, so the
 * request fails (500) and the test that drove it fails with the message, which is also printed. `violations` keeps
 * them for tests that look for them.
 */
export const transactionViolations: string[] = [];

function report(message: string): never {
  transactionViolations.push(message);
  console.error(`transaction guard: ${message}`);
  throw new Error(`transaction guard: ${message}`);
}

type Fn = (...args: unknown[]) => unknown;

/** Replaces each named method of `target` (own or inherited) with one that checks first. */
function checkBefore(target: object, names: string[], what: string): void {
  const holder = target as Record<string, unknown>;
  for (const name of names) {
    const original = holder[name];
    if (typeof original !== 'function') continue;
    holder[name] = function (this: unknown, ...args: unknown[]) {
      checkNoOpenTransaction(`${what}.${name}`);
      return (original as Fn).apply(this, args);
    };
  }
}

const HANDLE_METHODS = ['signal', 'query', 'cancel', 'terminate', 'describe', 'result', 'executeUpdate', 'startUpdate'];

export function installTransactionGuard(deps: AppDeps): void {
  guardTransactions(deps.db, report);
  checkBefore(deps.mailer, ['send'], 'mailer');
  const workflow = deps.temporal.workflow;
  checkBefore(workflow, ['start', 'signalWithStart', 'execute', 'result', 'executeUpdateWithStart', 'startUpdateWithStart'], 'temporal.workflow');
  const getHandle = workflow.getHandle.bind(workflow);
  (workflow as unknown as { getHandle: Fn }).getHandle = (...args: unknown[]) => {
    const handle = (getHandle as Fn)(...args) as object;
    checkBefore(handle, HANDLE_METHODS, 'temporal.handle');
    return handle;
  };
  const storage = deps.storage as unknown as Record<string, unknown>;
  const methods = new Set<string>();
  for (let proto = Object.getPrototypeOf(storage) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      // Presigning and settings compute locally.
      if (name !== 'constructor' && !/^(_|presigned|set|calculate|extensions)/.test(name) && typeof storage[name] === 'function') methods.add(name);
    }
  }
  checkBefore(storage, [...methods], 'minio');
}
