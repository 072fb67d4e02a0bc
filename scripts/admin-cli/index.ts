/**
 * The operator CLI: `scripts/admin [--json] <command> [args]` (from any directory) or
 * `npm run admin -- [--json] <command> [args]`, both of which run scripts/admin.ts, which calls `runAdmin`.
 *
 * To add a command, add an entry to a command table of this folder (or a new table joined in COMMANDS):
 * `usage` (the arguments, shown in help and on bad usage), `summary`, `minArgs`/`maxArgs`, and `run(args, ctx)`
 * returning the process exit code. Commands get a database handle, the configuration and the domain services
 * through `ctx`, answer once with `ctx.emit(value, toText)` (so `--json` prints `value` as one JSON line and the text
 * form is made from the same value) and report failures with `ctx.err`, so tests can call `runAdmin` directly.
 */
import { createDb, type Db } from '../../db/knex';
import { ConfigError, loadConfig, type Config } from '../../lib/config';
import { ACCOUNT_COMMANDS } from './accounts';
import type { AdminCommand, AdminContext, AdminErrorCode } from './command';
import { CONTENT_COMMANDS } from './content';
import { OPERATIONS_COMMANDS } from './operations';
import { UsageError } from './options';
import { ORGANIZATION_COMMANDS } from './organizations';
import { RUNS_COMMANDS } from './runs';
import { TEMPORAL_COMMANDS } from './temporal';
import { withServices } from './services';

export type { AdminCommand, AdminContext } from './command';

export const COMMANDS: Record<string, AdminCommand> = {
  ...ACCOUNT_COMMANDS,
  ...RUNS_COMMANDS,
  ...ORGANIZATION_COMMANDS,
  ...OPERATIONS_COMMANDS,
  ...CONTENT_COMMANDS,
  ...TEMPORAL_COMMANDS,
};

/** The global flag: anywhere on the line, it makes every answer and every error one JSON line. */
const JSON_FLAG = '--json';
const HELP = new Set(['help', '--help', '-h']);

const commandUsage = (name: string): string => `npm run admin -- ${name}${COMMANDS[name]!.usage ? ` ${COMMANDS[name]!.usage}` : ''}`;

function usageLine(): string {
  const list = Object.entries(COMMANDS).map(([name, c]) => `${name}${c.usage ? ` ${c.usage}` : ''}`);
  return `usage: npm run admin -- [--json] <command> (commands: ${list.join('; ')})`;
}

function helpLines(): string[] {
  return [
    'usage: scripts/admin [--json] <command> [args]   (or: npm run admin -- [--json] <command> [args])',
    '  --json  every answer as one JSON line on stdout, every failure as {"error":{"code","message"}} on stderr',
    'commands:',
    ...Object.entries(COMMANDS).flatMap(([name, c]) => [`  ${name}${c.usage ? ` ${c.usage}` : ''}`, `      ${c.summary}`]),
  ];
}

interface AdminIo {
  out(line: string): void;
  err(line: string): void;
  env?: Record<string, string | undefined>;
  db?: Db;
}

/** Runs one command line; returns the exit code (0 done, 1 failed action, 2 bad usage). `db` defaults to a connection from the configuration. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const json = argv.includes(JSON_FLAG);
  const fail = (message: string, code: AdminErrorCode): void =>
    io.err(json ? JSON.stringify({ error: { code, message } }) : `admin: ${message}`);
  const [name, ...args] = argv.filter((a) => a !== JSON_FLAG);

  if (!name || HELP.has(name)) {
    if (!name) {
      fail(usageLine(), 'USAGE_ERROR');
      return 2;
    }
    const commands = Object.entries(COMMANDS).map(([command, c]) => ({ command, usage: c.usage, summary: c.summary }));
    for (const line of json ? [JSON.stringify({ commands })] : helpLines()) io.out(line);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    fail(`unknown command "${name}"; ${usageLine()}`, 'USAGE_ERROR');
    return 2;
  }
  if (args.length === 1 && HELP.has(args[0]!)) {
    io.out(json ? JSON.stringify({ command: name, usage: command.usage, summary: command.summary }) : `usage: ${commandUsage(name)}: ${command.summary}`);
    return 0;
  }
  if (args.length < command.minArgs || args.length > command.maxArgs) {
    fail(`usage: ${commandUsage(name)}`, 'USAGE_ERROR');
    return 2;
  }
  let config: Config;
  try {
    // The JWT secret is not needed by operator commands; a placeholder keeps loadConfig's validation happy.
    config = loadConfig({ SERVICE_JWT_SECRET: 'x'.repeat(32), ...(io.env ?? process.env) });
  } catch (err) {
    fail((err as ConfigError).message, 'USAGE_ERROR');
    return 2;
  }
  const db = io.db ?? createDb(config.database.url, 2);
  const ctx: AdminContext = {
    config,
    db,
    emit: (value, text) => {
      for (const line of json ? [JSON.stringify(value)] : text(value)) io.out(line);
    },
    err: (message, code = 'FAILED') => fail(message, code),
    withServices: (work) => withServices(config, db, work),
  };
  try {
    return await command.run(args, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      fail(`${err.message}; usage: ${commandUsage(name)}`, 'USAGE_ERROR');
      return 2;
    }
    fail(`${name} failed: ${(err as Error).message}`, 'FAILED');
    return 1;
  } finally {
    if (!io.db) await db.destroy();
  }
}
