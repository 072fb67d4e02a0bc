import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { Mailer } from '../lib/mailer';
import type { MinioClient } from '../lib/storage';
import type { Db } from '../db/knex';

/** What activities may touch. Built once per worker process. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  storage: MinioClient;
  mailer: Mailer;
  logger: Logger;
}
