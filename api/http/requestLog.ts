import type { Context } from 'koa';
import type { Logger } from '../../lib/logger';
import type { OrganizationContext, Principal } from '../../domain/principals';

/**
 * Who and what a request's log lines are about: `requestId` from the start, and once authentication has resolved
 * them `userId` or `apiKeyId` and `organizationId`.
 */
export interface RequestLogFields {
  requestId: string;
  userId?: string;
  apiKeyId?: string;
  organizationId?: string | null;
}

/**
 * The log context of one request, passed explicitly (on `ctx.state`) rather than through AsyncLocalStorage: on
 * Node 20 an AsyncLocalStorage installs promise hooks that run for every promise in the process, ~12% of an
 * authenticated read's CPU (docs/benchmarks.md). The request line is written from `fields`; handlers log through
 * `ctx.state.log`, a child logger carrying the fields, made on first use (a pino child costs several µs and most
 * requests log nothing but their request line) and remade when authentication adds fields.
 */
export class RequestLog {
  private child: Logger | undefined;

  constructor(
    private readonly base: Logger,
    readonly fields: RequestLogFields,
  ) {}

  get logger(): Logger {
    if (!this.child) {
      // pino leaves fields that are still undefined out of the bindings.
      this.child = this.base.child(this.fields);
    }
    return this.child;
  }

  /** Adds the authenticated caller and the organization acted for. */
  enrich(principal: Principal | null, organization: OrganizationContext | null): void {
    if (!principal) return;
    const organizationId =
      organization?.organizationId ??
      (principal.kind === 'user' ? principal.activeOrganizationId : principal.organizationId) ??
      null;
    if (principal.kind === 'user') this.fields.userId = principal.userId;
    else this.fields.apiKeyId = principal.apiKeyId;
    this.fields.organizationId = organizationId;
    this.child = undefined;
  }
}

/** `ctx.state` of every request: `log` is the request's logger (see RequestLog). Routes add their own fields. */
export class RequestState {
  [field: string]: unknown;

  constructor(readonly requestLog: RequestLog) {}

  get log(): Logger {
    return this.requestLog.logger;
  }
}

/** Once a request is authenticated, who is acting and for which organization join its log context. */
export function enrichRequestLog(ctx: Context, principal: Principal | null, organization: OrganizationContext | null): void {
  const state: unknown = ctx.state;
  if (state instanceof RequestState) state.requestLog.enrich(principal, organization);
}

/** The request's id (the caller's X-Request-Id when sane, else ours), as requestContext answered it. */
export function requestIdOf(ctx: Context): string | undefined {
  return ctx.response.get('X-Request-Id') || undefined;
}
