import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import { createLocalBillingProvider } from './localProvider';
import type { BillingProvider } from './provider';
import { createTestBillingProvider } from './testProvider';

/** The provider `SERVICE_BILLING_PROVIDER` names; the API and the worker build theirs here. */
export function createBillingProvider(config: { organizations: Pick<Config['organizations'], 'billingProvider'> }, db: Db): BillingProvider {
  switch (config.organizations.billingProvider) {
    case 'test':
      return createTestBillingProvider(db);
    case 'local':
      return createLocalBillingProvider(db);
  }
}
