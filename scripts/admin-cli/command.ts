/**
 * What an operator command is and what it is given. Kept apart from the entry point (scripts/admin.ts) so the
 * command modules import no composition root: they reach the domain services through `ctx.withServices`.
 */
import type { Db } from '../../db/knex';
import type { Services } from '../../domain/services';
import type { Config } from '../../lib/config';

/**
 * What a failed command says in `--json` mode (`{ "error": { code, message } }` on stderr): the exit code tells
 * usage (2) from a failed action (1); the code tells a missing thing from a refused or failed one.
 */
export type AdminErrorCode = 'USAGE_ERROR' | 'NOT_FOUND' | 'FAILED';

export interface AdminContext {
  config: Config;
  db: Db;
  /**
   * The command's answer: `value` as one JSON line under `--json`, otherwise the text lines `text` makes from it.
   * Call it once per command run.
   */
  emit<T>(value: T, text: (value: T) => string[]): void;
  /** One line about a failure, on stderr (under `--json`, the message of the error object). */
  err(line: string, code?: AdminErrorCode): void;
  /** The API's domain services on the CLI's connection, built on first use and closed after `work`. */
  withServices<T>(work: (services: Services) => Promise<T>): Promise<T>;
}

export interface AdminCommand {
  usage: string;
  summary: string;
  minArgs: number;
  maxArgs: number;
  run(args: string[], ctx: AdminContext): Promise<number>;
}
