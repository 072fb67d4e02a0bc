import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { secretBoxFor } from '../../domain/secrets/queries';
import { secretRoutes } from './routes';
import { createSecretsService, type SecretsService } from '../../domain/secrets/service';

export interface SecretsDomain extends Domain {
  service: SecretsService;
}

/** Organization secrets: a write-only, encrypted, audited store that node configs reference (docs/secrets.md). */
export function createSecretsDomain(deps: AppDeps): SecretsDomain {
  const service = createSecretsService({ db: deps.db, box: secretBoxFor(deps.config) });
  return { service, routes: secretRoutes(service) };
}
