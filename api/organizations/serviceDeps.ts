import type { Client as TemporalClient } from '@temporalio/client';
import type { Db } from '../../db/knex';
import type { BillingProvider } from '../../lib/billing';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mailer';
import type { SecretBox } from '../../lib/secrets';
import type { MinioClient } from '../../lib/storage';
import type { ApiCallMeter } from './usageMeter';

/** What the organizations services use; built once by createOrganizationsDomain. */
export interface OrgServiceDeps {
  config: Config;
  db: Db;
  logger: Logger;
  temporal: TemporalClient;
  storage: MinioClient;
  mailer: Mailer;
  box: SecretBox;
  billing: BillingProvider;
  meter: ApiCallMeter;
}
