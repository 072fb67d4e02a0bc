import type { BillingProvider } from '../billing/provider';
import type { AppDeps } from '../deps';
import type { ApiCallMeter } from './usageMeter';

/** What the organizations services use: the app's dependencies plus their own; built once by domain/services.ts. */
export interface OrgServiceDeps extends AppDeps {
  billing: BillingProvider;
  meter: ApiCallMeter;
}
