import type { Knex } from 'knex';
import type { Actor } from '../principals';
import { diffSnapshots, maskSecrets } from './mask';
import { insertAuditLog } from './queries';

/**
 * The one way to write an audit entry, for every domain. Pass the transaction that makes the change so the entry
 * and the change commit together. `before`/`after` are snapshots of the target; only what changed is kept, and
 * secrets are masked. Organization events name their organization; account events (login, password, sessions)
 * name no organization and the account they concern (`userId`), whose owner reads them.
 */
export interface SystemActor {
  type: 'system';
  /** e.g. the workflow id that acted. */
  id: string | null;
}

/** Someone not signed in (a login attempt, a password reset): only the request's IP and user agent are known. */
export interface AnonymousActor {
  type: 'anonymous';
  id: null;
  ip: string | null;
  userAgent: string | null;
}

export type AuditActor = Actor | SystemActor | AnonymousActor;

export type AuditInput = {
  actor: AuditActor;
  /** `<resource>.<verb>`, e.g. `member.role_changed`, `settings.updated`, `workflow.created`. */
  action: string;
  target?: { type: string; id: string | null };
  before?: unknown;
  after?: unknown;
  /** Defaults to the actor's request IP / user agent. */
  ip?: string | null;
  userAgent?: string | null;
} & (
  | { organizationId: string; userId?: undefined }
  /** An account event: `userId` is the account it concerns, or null when no account matched (unknown e-mail). */
  | { organizationId: null; userId: string | null }
);

export async function recordAudit(db: Knex | Knex.Transaction, input: AuditInput): Promise<void> {
  let changes: unknown = null;
  if (input.before !== undefined || input.after !== undefined) {
    changes =
      input.before !== undefined && input.after !== undefined
        ? diffSnapshots(maskSecrets(input.before), maskSecrets(input.after))
        : { before: maskSecrets(input.before) ?? null, after: maskSecrets(input.after) ?? null };
  }
  const fromRequest = input.actor.type === 'system' ? null : input.actor;
  await insertAuditLog(db, {
    organization_id: input.organizationId,
    user_id: input.userId ?? null,
    actor_type: input.actor.type,
    actor_id: input.actor.id,
    action: input.action,
    target_type: input.target?.type ?? null,
    target_id: input.target?.id ?? null,
    changes: changes === null ? null : JSON.stringify(changes),
    ip: (input.ip ?? fromRequest?.ip ?? null)?.slice(0, 45) ?? null,
    user_agent: (input.userAgent ?? fromRequest?.userAgent ?? null)?.slice(0, 1000) ?? null,
  });
}
