import type { Db } from '../../db/knex';
import type { AppDeps } from '../../domain/deps';
import { createDeps } from '../../domain/runtime';
import { createServices, type Services } from '../../domain/services';
import type { Config } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { closeTemporalClient } from '../../lib/temporal';

/**
 * The CLI's composition root: the API's services on the CLI's connection, built on first use (Temporal, MinIO and
 * SMTP clients are lazy: nothing connects unused), closed after `work`. The operator's starts skip run admission.
 */
export async function withServices<T>(config: Config, db: Db, work: (services: Services) => Promise<T>): Promise<T> {
  const deps: AppDeps = createDeps(config, createLogger('silent', 'admin'), db);
  const services = createServices(deps, { admitRunStarts: false });
  try {
    return await work(services);
  } finally {
    await services.close();
    await closeTemporalClient(deps.temporal).catch(() => undefined);
  }
}
