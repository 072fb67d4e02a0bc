import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { contentRoutes } from './routes';
import { embeddingModelRoutes } from './embeddingModelRoutes';
import { reembeddingRoutes } from './reembeddingRoutes';

export function createContentDomain(services: Services): Domain {
  const { service, search, extractor, embeddingModels, reembeddings } = services.content;
  return { routes: [...reembeddingRoutes(reembeddings), ...contentRoutes(service, search, extractor), ...embeddingModelRoutes(embeddingModels)] };
}
