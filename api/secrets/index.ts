import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { secretRoutes } from './routes';

/** Organization secrets: a write-only, encrypted, audited store that node configs reference (docs/secrets.md). */
export function createSecretsDomain(services: Services): Domain {
  return { routes: secretRoutes(services.secrets) };
}
