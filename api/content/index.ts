import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { contentRoutes } from './routes';
import { embeddingModelRoutes } from './embeddingModelRoutes';

export function createContentDomain(services: Services): Domain {
  const { service, search, extractor, embeddingModels } = services.content;
  return { routes: [...contentRoutes(service, search, extractor), ...embeddingModelRoutes(embeddingModels)] };
}
