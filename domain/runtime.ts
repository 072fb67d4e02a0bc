import type { Config } from '../lib/config';
import { reportSandboxTo } from '../lib/expressions/sandbox';
import { createLogger, type Logger } from '../lib/logger';
import { createMailer } from '../lib/mailer';
import { createSecretBox } from '../lib/secrets';
import { createStorage } from '../lib/storage';
import { closeTemporalClient, createTemporalClient } from '../lib/temporal';
import { createDb, type Db } from '../db/knex';
import type { AppDeps, ProcessDeps } from './deps';
import { createToolCatalogue } from './tools/catalogue';

/**
 * The parts every process shares, each built once here: the database pool, storage and mail clients, the secret box
 * and the tool catalogue. Nothing connects until first use, so a down service never blocks start-up.
 */
export function createProcessDeps(config: Config, logger: Logger, db: Db = createDb(config.database.url, config.database.poolMax, logger)): ProcessDeps {
  // A sandbox process's end (a tenant's expression past its memory) is a warning in the process's JSON log.
  reportSandboxTo((line) => logger.warn({ component: 'expression-sandbox' }, line));
  return {
    config,
    db,
    logger,
    storage: createStorage(config.minio),
    mailer: createMailer(config.mail),
    box: createSecretBox({ encryptionKey: config.organizations.encryptionKey, jwtSecret: config.jwt.secret }),
    tools: createToolCatalogue({ db, config, logger }),
  };
}

/** The API's (and the admin CLI's, on its own connection `db`) shared parts: the process's, and a Temporal client. */
export function createDeps(config: Config, logger: Logger = createLogger(config.logLevel, 'api'), db?: Db): AppDeps {
  return { ...createProcessDeps(config, logger, db), temporal: createTemporalClient(config.temporal) };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await Promise.allSettled([deps.db.destroy(), closeTemporalClient(deps.temporal)]);
}
