import type { Client as TemporalClient } from '@temporalio/client';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { Mailer } from '../lib/mailer';
import type { SecretBox } from '../lib/secrets';
import type { MinioClient } from '../lib/storage';
import type { Db } from '../db/knex';
import type { ToolCatalogue } from './tools/catalogue';

/**
 * What every process shares, built once by its composition root (domain/runtime.ts for the API and the CLI,
 * worker/main.ts for the worker) and passed down: the clients, the one secret box and the one tool catalogue.
 */
export interface ProcessDeps {
  config: Config;
  db: Db;
  logger: Logger;
  storage: MinioClient;
  mailer: Mailer;
  /** Seals and opens stored secrets (SERVICE_ENCRYPTION_KEY). */
  box: SecretBox;
  /** The tools the workers of this task queue published (domain/tools/catalogue.ts). */
  tools: ToolCatalogue;
}

/** Everything a domain service needs from the outside world: the process's shared parts and a Temporal client. */
export interface AppDeps extends ProcessDeps {
  temporal: TemporalClient;
}
