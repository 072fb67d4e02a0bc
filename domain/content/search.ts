import type { AppDeps } from '../deps';
import type { Actor, OrganizationContext } from '../principals';
import { AppError, forbidden, notFound, validationError } from '../../lib/errors';
import { decodeCursorOrThrow, encodeCursor, invalidCursor } from '../../lib/pagination';
import { builtInProviderOf, EmbeddingProviderError, kindOfModel, type EmbeddingProvider, type EmbeddingProviderKind } from '../../lib/embeddings';
import { embeddingProviderForOrganization } from './embeddingProvider';
import { createEmbeddingModels } from './embeddingModels';
import type { VectorHit, VectorStore } from '../../lib/vectors';
import * as q from './queries';
import type { ContentFilter } from './schemas';
import { serializeContent } from './serializers';

/**
 * Semantic, keyword and hybrid search, similar content, embeddings, and the metadata query. Vectors and chunk
 * text come from LanceDB, always with an organization predicate; the content rows are then read from PostgreSQL,
 * again by organization, so a result can never carry another tenant's content.
 */
const RRF_K = 60;
/** Filters narrow LanceDB by id list up to this many candidates; beyond it results are filtered afterwards. */
const CANDIDATE_CAP = 2000;

export function providerFor(deps: AppDeps, organizationId: string): Promise<EmbeddingProvider> {
  return embeddingProviderForOrganization(deps, organizationId);
}

async function embedQuery(provider: EmbeddingProvider, text: string): Promise<number[]> {
  try {
    const [vector] = await provider.embed([text], 'query');
    return vector!;
  } catch (err) {
    if (err instanceof EmbeddingProviderError) {
      // The provider's answer, its address and the resolved IP stay out of the response: a tenant may point the
      // provider at a host it wants to probe. The detail reaches the log as the cause (errorMiddleware logs 5xx).
      const upstream = new AppError('UPSTREAM_ERROR', 'the embedding provider failed; the server log has the details');
      upstream.cause = err;
      throw upstream;
    }
    throw err;
  }
}

interface Ranked {
  contentId: string;
  score: number;
  highlights: { chunkIndex: number; text: string }[];
}

/** Chunk hits to one entry per content (its best chunk's score), best first. */
function groupByContent(hits: VectorHit[]): Ranked[] {
  const byContent = new Map<string, Ranked>();
  for (const hit of hits) {
    const entry = byContent.get(hit.contentId);
    const highlight = { chunkIndex: hit.chunkIndex, text: snippet(hit.text) };
    if (!entry) byContent.set(hit.contentId, { contentId: hit.contentId, score: hit.score, highlights: [highlight] });
    else {
      if (entry.highlights.length < 3) entry.highlights.push(highlight);
      entry.score = Math.max(entry.score, hit.score);
    }
  }
  return [...byContent.values()].sort((a, b) => b.score - a.score);
}

function snippet(text: string): string {
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/**
 * The built-in models' semantic floors, calibrated on test/fixtures/relevance: unrelated short texts reach ~0.25
 * through the lexical embedder's hash collisions; with the word-vector model, 0.3 keeps 96% of the answers and
 * leaves out 90% of unrelated texts (`npm run bench -- --only relevance` reports both).
 */
const SEMANTIC_FLOOR: Partial<Record<EmbeddingProviderKind, number>> = { semantic: 0.3, lexical: 0.2 };
/** Document-to-document similarity runs higher (longer texts share more general vocabulary). */
const SIMILAR_FLOOR: Partial<Record<EmbeddingProviderKind, number>> = { semantic: 0.5, lexical: 0.3 };

/** The configured floor, else the provider's default (none for providers whose cosine scale we do not know). */
export function minSemanticScore(configured: number | undefined, provider: Pick<EmbeddingProvider, 'kind'>): number {
  return configured ?? SEMANTIC_FLOOR[provider.kind] ?? 0;
}

/** The floor of similar content for vectors of `model`: the configured one, else the built-in model's. */
export function minSimilarScore(configured: number | undefined, model: string): number {
  const kind = kindOfModel(model);
  return configured ?? (kind ? (SIMILAR_FLOOR[kind] ?? 0) : 0);
}

/** Models searched beyond the current provider's, while content is re-embedded (most organizations hold one). */
const MAX_MODELS_SEARCHED = 4;

interface ModelSource {
  model: string;
  dimensions: number;
  /** Embeds the query for this model's vectors; null: keyword search only (a hosted model no longer configured). */
  embedder: EmbeddingProvider | null;
}

/**
 * What one search covers: the current provider's vectors, and those of every other model that still holds some
 * of the organization's content (a switch of provider, until re-embedding finishes). A built-in model embeds its
 * own query; a hosted model that is no longer configured is searched by keyword only.
 */
function modelSources(provider: EmbeddingProvider, held: q.HeldModel[]): ModelSource[] {
  const sources: ModelSource[] = [{ model: provider.model, dimensions: provider.dimensions, embedder: provider }];
  for (const h of held) {
    if (sources.length >= MAX_MODELS_SEARCHED) break;
    if (h.model === provider.model && h.dimensions === provider.dimensions) continue;
    const builtIn = builtInProviderOf(h.model);
    sources.push({ model: h.model, dimensions: h.dimensions, embedder: builtIn && builtIn.dimensions === h.dimensions ? builtIn : null });
  }
  return sources;
}

/** One entry per content across models' lists: its best score (scores of one mode, one scale per model). */
function mergeLists(lists: Ranked[][]): Ranked[] {
  if (lists.length === 1) return lists[0]!;
  const best = new Map<string, Ranked>();
  for (const entry of lists.flat()) {
    const known = best.get(entry.contentId);
    if (!known || entry.score > known.score) best.set(entry.contentId, entry);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

export function createContentSearch(deps: AppDeps, vectors: VectorStore) {
  const { db } = deps;
  const models = createEmbeddingModels(deps, vectors);

  async function candidates(organizationId: string, filter: ContentFilter | undefined): Promise<string[] | undefined> {
    if (!filter || Object.keys(filter).length === 0) return undefined;
    const ids = await q.filterCandidates(db, organizationId, filter, CANDIDATE_CAP);
    return ids.length > CANDIDATE_CAP ? undefined : ids;
  }

  async function hydrate(organizationId: string, ids: string[], filter: ContentFilter | undefined) {
    const rows = await q.contentByIds(db, organizationId, ids, filter);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * The best `limit` entries whose content rows exist (and pass the filter), with their rows. Hybrid search ranks
   * up to ~100 contents for 10 results: read the first `limit` rows, and the rest only when some are missing
   * (deleted while their vectors are cleaned up, or filtered out).
   */
  async function hydrateBest<T extends { contentId: string }>(organizationId: string, ranked: T[], limit: number, filter: ContentFilter | undefined) {
    const rows = await hydrate(organizationId, ranked.slice(0, limit).map((r) => r.contentId), filter);
    if (rows.size < Math.min(limit, ranked.length) && ranked.length > limit) {
      for (const [id, row] of await hydrate(organizationId, ranked.slice(limit).map((r) => r.contentId), filter)) rows.set(id, row);
    }
    return ranked.filter((r) => rows.has(r.contentId)).slice(0, limit).map((r) => ({ entry: r, row: rows.get(r.contentId)! }));
  }

  return {
    async search(organizationId: string, body: { query: string; mode: 'semantic' | 'keyword' | 'hybrid'; filters?: ContentFilter; limit: number; minScore?: number }) {
      const provider = await providerFor(deps, organizationId);
      const sources = modelSources(provider, await q.embeddingModelsHeld(db, organizationId, MAX_MODELS_SEARCHED + 1));
      const models = sources.map((s) => s.model);
      const contentIds = await candidates(organizationId, body.filters);
      if (contentIds && contentIds.length === 0) return { mode: body.mode, model: provider.model, models, data: [] };
      // Over-fetch chunks: several chunks of one content collapse into one result.
      const options = { organizationId, kind: 'chunk' as const, limit: Math.min(body.limit * 5, 500), contentIds };
      const semanticOf = async (source: ModelSource): Promise<Ranked[]> => {
        if (!source.embedder) return [];
        const floor = body.minScore ?? minSemanticScore(deps.config.content.searchMinSemanticScore, source.embedder);
        const vector = await embedQuery(source.embedder, body.query);
        return groupByContent((await vectors.searchVector(source.model, source.dimensions, vector, options)).filter((hit) => hit.score >= floor));
      };
      // Hybrid mode runs both searches at once: its latency is the slower half, not the sum.
      const [semantic, keyword] = await Promise.all([
        body.mode === 'keyword' ? [] : Promise.all(sources.map(semanticOf)).then(mergeLists),
        body.mode === 'semantic'
          ? []
          : Promise.all(sources.map(async (s) => groupByContent(await vectors.searchText(s.model, s.dimensions, body.query, options)))).then(mergeLists),
      ]);

      let ranked: (Ranked & { scores: { semantic?: number; keyword?: number } })[];
      if (body.mode === 'semantic') ranked = semantic.map((r) => ({ ...r, scores: { semantic: r.score } }));
      else if (body.mode === 'keyword') ranked = keyword.map((r) => ({ ...r, scores: { keyword: r.score } }));
      else {
        // Reciprocal rank fusion: ranks, not raw scores, so cosine and BM25 scales need no calibration.
        const fused = new Map<string, Ranked & { scores: { semantic?: number; keyword?: number } }>();
        for (const [list, name] of [
          [semantic, 'semantic'],
          [keyword, 'keyword'],
        ] as const) {
          list.forEach((r, rank) => {
            const entry = fused.get(r.contentId) ?? { contentId: r.contentId, score: 0, highlights: r.highlights, scores: {} };
            entry.score += 1 / (RRF_K + rank + 1);
            entry.scores[name] = r.score;
            fused.set(r.contentId, entry);
          });
        }
        ranked = [...fused.values()].sort((a, b) => b.score - a.score);
      }
      const data = (await hydrateBest(organizationId, ranked, body.limit, body.filters)).map(({ entry, row }) => ({
        score: entry.score,
        scores: entry.scores,
        content: serializeContent(row),
        highlights: entry.highlights,
      }));
      return { mode: body.mode, model: provider.model, models, data };
    },

    async similar(organizationId: string, id: string, query: { limit: number; minScore?: number }) {
      if (!(await q.getContent(db, organizationId, id))) throw notFound('content');
      const document = await vectors.getDocumentVector(organizationId, id);
      if (!document) throw new AppError('INVALID_STATE', 'content has no embedding yet: process or embed it first');
      const hits = await vectors.searchVector(document.model, document.dimensions, document.vector, {
        organizationId,
        kind: 'document',
        limit: query.limit,
        excludeContentId: id,
      });
      const floor = query.minScore ?? minSimilarScore(deps.config.content.similarMinScore, document.model);
      const rows = await hydrate(organizationId, hits.filter((h) => h.score >= floor).map((h) => h.contentId), undefined);
      return {
        model: document.model,
        minScore: floor,
        data: hits.filter((h) => rows.has(h.contentId)).map((h) => ({ score: h.score, content: serializeContent(rows.get(h.contentId)!) })),
      };
    },

    async getEmbedding(organizationId: string, id: string) {
      if (!(await q.getContent(db, organizationId, id))) throw notFound('content');
      const document = await vectors.getDocumentVector(organizationId, id);
      if (!document) throw notFound('embedding (content not embedded yet)');
      return { contentId: id, ...document };
    },

    /** Bring your own vector: the dimension must match the model's (declared by the provider, or of its table). */
    async putEmbedding(org: OrganizationContext, actor: Actor | null, id: string, body: { vector: number[]; model?: string }) {
      const row = await q.getContent(db, org.organizationId, id);
      if (!row) throw notFound('content');
      if (org.role === 'member') {
        const own = actor && (actor.type === 'user' ? row.created_by === actor.id : row.created_by_api_key_id === actor.id);
        if (!own) throw forbidden('members may change only content they created');
      }
      const provider = await providerFor(deps, org.organizationId);
      const model = body.model ?? provider.model;
      // A custom model's dimension is this organization's registration (never another tenant's): embeddingModels.ts.
      const expected = model === provider.model ? provider.dimensions : await models.dimensionsFor(org.organizationId, actor, model, body.vector.length);
      if (body.vector.length !== expected) {
        throw new AppError('UNPROCESSABLE', `model ${model} has ${expected} dimensions, the vector has ${body.vector.length}`, [
          { path: 'body.vector', problem: `expected ${expected} numbers` },
        ]);
      }
      const norm = Math.sqrt(body.vector.reduce((s, v) => s + v * v, 0));
      if (norm === 0) throw validationError('a zero vector has no direction', [{ path: 'body.vector', problem: 'all zeros' }]);
      await vectors.putDocumentVector(
        {
          id: `${id}:document`,
          organization_id: org.organizationId,
          content_id: id,
          version: row.current_version,
          kind: 'document',
          source: 'provided',
          chunk_index: -1,
          text: '',
          model,
          vector: body.vector,
        },
        body.vector.length,
      );
      await q.updateContent(db, org.organizationId, id, {
        embedding_model: model,
        embedding_dimensions: body.vector.length,
        embedded_at: db.fn.now(),
      });
      // Read back for the chunk count; a processing job of the content may have replaced the vectors meanwhile,
      // and the write still succeeded: then the answer is what was written.
      const stored = await vectors.getDocumentVector(org.organizationId, id);
      if (stored) return { contentId: id, ...stored };
      return { contentId: id, model, dimensions: body.vector.length, vector: body.vector, source: 'provided' as const, version: row.current_version, chunks: 0 };
    },

    async query(
      organizationId: string,
      body: { filter?: ContentFilter; sort?: { field: 'createdAt' | 'updatedAt' | 'size' | 'title'; direction: 'asc' | 'desc' }; limit: number; cursor?: string },
    ) {
      const sortField = body.sort?.field ?? 'createdAt';
      const direction = body.sort?.direction ?? 'desc';
      const after: q.QueryPosition | null = decodeCursorOrThrow(body.cursor, 'any', 'body.cursor');
      let rows;
      try {
        rows = await q.queryContent(db, organizationId, { filter: body.filter, sortField, direction, limit: body.limit, after });
      } catch (err) {
        // A cursor made for another sort field does not cast: a client error.
        if ((err as { code?: string }).code?.startsWith('22')) throw invalidCursor('body.cursor');
        throw err;
      }
      const data = rows.slice(0, body.limit);
      const last = data[data.length - 1];
      const sortValue = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v ?? ''));
      return {
        data: data.map(serializeContent),
        nextCursor: rows.length > body.limit && last ? encodeCursor({ sort: sortValue(last.sort_value), id: last.id }) : null,
      };
    },
  };
}

export type ContentSearch = ReturnType<typeof createContentSearch>;
