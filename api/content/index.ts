import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { createVectorStore, type VectorStore } from '../../lib/vectors';
import { createContentExtractor } from '../../domain/content/extract';
import { contentRoutes } from './routes';
import { embeddingModelRoutes } from './embeddingModelRoutes';
import { createEmbeddingModels } from '../../domain/content/embeddingModels';
import { createContentSearch } from '../../domain/content/search';
import { createContentService } from '../../domain/content/service';

export interface ContentDomain extends Domain {
  vectors: VectorStore;
}

export function createContentDomain(deps: AppDeps): ContentDomain {
  const vectors = createVectorStore(deps.config.content, deps.config.minio);
  const service = createContentService(deps);
  const search = createContentSearch(deps, vectors);
  return {
    routes: [...contentRoutes(service, search, createContentExtractor(deps)), ...embeddingModelRoutes(createEmbeddingModels(deps, vectors))],
    vectors,
  };
}
