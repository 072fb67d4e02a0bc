/** Operator commands over accounts: end a user's sessions, prune dead ones, look a user up. */
import { describeUser, pruneAuthData, revokeSessionsByEmail, type UserOverview } from '../../domain/auth/admin';
import type { AdminCommand } from './command';
import { formatTable, truncate, UsageError } from './options';

function userLines(u: UserOverview): string[] {
  const fields: [string, string][] = [
    ['user', u.id],
    ['email', `${u.email}${u.emailVerified ? '' : ' (not verified)'}`],
    ['name', u.name ?? '-'],
    ['created', u.createdAt],
    ['2fa', u.twoFactorEnabled ? 'on' : 'off'],
    ['sessions', `${u.liveSessions} live`],
  ];
  const width = Math.max(...fields.map(([name]) => name.length));
  const lines = fields.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
  lines.push('');
  if (!u.memberships.length) {
    lines.push('admin: no memberships');
    return lines;
  }
  const rows = u.memberships.map((m) => [m.organizationId, m.slug, truncate(m.name, 40), m.role, m.status, m.joinedAt]);
  lines.push(...formatTable(['ORGANIZATION', 'SLUG', 'NAME', 'ROLE', 'STATUS', 'JOINED'], rows));
  return lines;
}

export const ACCOUNT_COMMANDS: Record<string, AdminCommand> = {
  'revoke-sessions': {
    usage: '<email>',
    summary: 'end every session of a user at once (their access and refresh tokens stop working)',
    minArgs: 1,
    maxArgs: 1,
    async run([email], ctx) {
      const result = await revokeSessionsByEmail(ctx.db, email!);
      if (!result.found) {
        ctx.err(`no user with e-mail ${email}`, 'NOT_FOUND');
        return 1;
      }
      ctx.emit({ email: email!, revoked: result.revoked }, (r) => [`admin: revoked ${r.revoked} session(s) of ${r.email}`]);
      return 0;
    },
  },
  'prune-auth': {
    usage: '',
    summary: 'delete expired or idle sessions and spent or expired password-reset / verification codes',
    minArgs: 0,
    maxArgs: 0,
    async run(_args, ctx) {
      const result = await pruneAuthData(ctx.db, ctx.config.auth.sessionIdleTimeoutMs);
      ctx.emit(result, (r) => [`admin: deleted ${r.sessions} dead session(s) and ${r.authTokens} spent or expired code(s)`]);
      return 0;
    },
  },
  users: {
    usage: 'show <email|id>',
    summary: "a user's account: memberships (organization, role), two-factor sign-in on or off, live sessions",
    minArgs: 2,
    maxArgs: 2,
    async run([action, key], ctx) {
      if (action !== 'show') throw new UsageError(`unknown action "${action}" (show)`);
      const user = await describeUser(ctx.db, key!, ctx.config.auth.sessionIdleTimeoutMs);
      if (!user) {
        ctx.err(`no user with e-mail or id "${truncate(key!, 64)}"`, 'NOT_FOUND');
        return 1;
      }
      ctx.emit(user, userLines);
      return 0;
    },
  },
};
