import type { Client as TemporalClient } from '@temporalio/client';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { Mailer } from '../lib/mailer';
import type { MinioClient } from '../lib/storage';
import type { Db } from '../db/knex';
import type { RouteDef } from './http/route';

/** Everything a domain needs from the outside world, created once by the server and passed down. */
export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  temporal: TemporalClient;
  storage: MinioClient;
  mailer: Mailer;
}

export interface Domain {
  routes: RouteDef[];
}
