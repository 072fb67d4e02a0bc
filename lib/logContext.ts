import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Fields that every log line written while handling one request carries (`requestId`, and once authentication has
 * resolved them `userId` or `apiKeyId` and `organizationId`), whichever logger writes it: the request's own
 * `ctx.state.log` or a service's `deps.logger`. The logger reads them through a pino mixin (lib/logger.ts).
 */
export interface LogContext {
  requestId?: string;
  userId?: string;
  apiKeyId?: string;
  organizationId?: string | null;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `fn` (and everything it awaits) with these log fields. */
export function runWithLogContext<T>(fields: LogContext, fn: () => T): T {
  return storage.run({ ...fields }, fn);
}

/** Adds fields to the current request's log context (no-op outside one). */
export function addLogContext(fields: LogContext): void {
  const current = storage.getStore();
  if (current) Object.assign(current, fields);
}

export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}
