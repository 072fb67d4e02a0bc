import type { Client as TemporalClient } from '@temporalio/client';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { Mailer } from '../lib/mailer';
import type { MinioClient } from '../lib/storage';
import type { Db } from '../db/knex';

/** Everything a domain service needs from the outside world, created once by the process and passed down. */
export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  temporal: TemporalClient;
  storage: MinioClient;
  mailer: Mailer;
}
