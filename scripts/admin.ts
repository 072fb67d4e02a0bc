/**
 * Operator commands: `npm run admin -- <command> [args]`.
 *
 * To add a command, add an entry to COMMANDS: `usage` (the arguments, shown in help and on bad usage), `summary`,
 * `minArgs`/`maxArgs`, and `run(args, ctx)` returning the process exit code. Commands get a database handle and
 * the configuration through `ctx` and print with `ctx.out` / `ctx.err`, so tests can call `runAdmin` directly.
 */
import { pruneAuthData, revokeSessionsByEmail } from '../domain/auth/admin';
import { createDb, type Db } from '../db/knex';
import { ConfigError, loadConfig, type Config } from '../lib/config';
import { OPERATIONS_COMMANDS } from './admin/operations';
import { CONTENT_COMMANDS } from './admin/content';
import { UsageError } from './admin/options';

export interface AdminContext {
  config: Config;
  db: Db;
  out(line: string): void;
  err(line: string): void;
}

export interface AdminCommand {
  usage: string;
  summary: string;
  minArgs: number;
  maxArgs: number;
  run(args: string[], ctx: AdminContext): Promise<number>;
}

export const COMMANDS: Record<string, AdminCommand> = {
  'revoke-sessions': {
    usage: '<email>',
    summary: 'end every session of a user at once (their access and refresh tokens stop working)',
    minArgs: 1,
    maxArgs: 1,
    async run([email], ctx) {
      const result = await revokeSessionsByEmail(ctx.db, email!);
      if (!result.found) {
        ctx.err(`admin: no user with e-mail ${email}`);
        return 1;
      }
      ctx.out(`admin: revoked ${result.revoked} session(s) of ${email}`);
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
      ctx.out(`admin: deleted ${result.sessions} dead session(s) and ${result.authTokens} spent or expired code(s)`);
      return 0;
    },
  },
  ...OPERATIONS_COMMANDS,
  ...CONTENT_COMMANDS,
};

function usageLine(): string {
  const list = Object.entries(COMMANDS).map(([name, c]) => `${name}${c.usage ? ` ${c.usage}` : ''}`);
  return `usage: npm run admin -- <command> (commands: ${list.join('; ')})`;
}

/** Runs one command; returns the exit code. `db` defaults to a connection from the configuration. */
export async function runAdmin(
  argv: string[],
  io: { out(line: string): void; err(line: string): void; env?: Record<string, string | undefined>; db?: Db },
): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    (name ? io.out : io.err)(`admin: ${usageLine()}`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`admin: unknown command "${name}"; ${usageLine()}`);
    return 2;
  }
  if (args.length < command.minArgs || args.length > command.maxArgs) {
    io.err(`admin: usage: npm run admin -- ${name}${command.usage ? ` ${command.usage}` : ''}`);
    return 2;
  }
  let config: Config;
  try {
    // The JWT secret is not needed by operator commands; a placeholder keeps loadConfig's validation happy.
    config = loadConfig({ SERVICE_JWT_SECRET: 'x'.repeat(32), ...(io.env ?? process.env) });
  } catch (err) {
    io.err(`admin: ${(err as ConfigError).message}`);
    return 2;
  }
  const db = io.db ?? createDb(config.database.url, 2);
  try {
    return await command.run(args, { config, db, out: io.out, err: io.err });
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`admin: ${err.message}; usage: npm run admin -- ${name}${command.usage ? ` ${command.usage}` : ''}`);
      return 2;
    }
    io.err(`admin: ${name} failed: ${(err as Error).message}`);
    return 1;
  } finally {
    if (!io.db) await db.destroy();
  }
}

if (require.main === module) {
  void runAdmin(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then((code) => {
    process.exitCode = code;
  });
}
