import type { Config } from '../lib/config';
import { createLogger } from '../lib/logger';
import { createMailer } from '../lib/mailer';
import { createStorage } from '../lib/storage';
import { createTemporalClient } from '../lib/temporal';
import { createDb } from '../db/knex';
import type { AppDeps } from './deps';

/** Creates the API's clients. Nothing connects until first use, so a down service never blocks start-up. */
export function createDeps(config: Config): AppDeps {
  const logger = createLogger(config.logLevel, 'api');
  return {
    config,
    db: createDb(config.database.url, config.database.poolMax, logger),
    logger,
    temporal: createTemporalClient(config.temporal),
    storage: createStorage(config.minio),
    mailer: createMailer(config.mail),
  };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await Promise.allSettled([deps.db.destroy(), deps.temporal.connection.close()]);
}
