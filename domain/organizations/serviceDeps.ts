import type { BillingProvider } from '../billing/provider';
import type { SecretBox } from '../../lib/secrets';
import type { AppDeps } from '../deps';
import type { ApiCallMeter } from './usageMeter';

/** What the organizations services use: the app's dependencies plus their own; built once by createOrganizationsDomain. */
export interface OrgServiceDeps extends AppDeps {
  box: SecretBox;
  billing: BillingProvider;
  meter: ApiCallMeter;
}
