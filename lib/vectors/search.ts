import type * as lancedb from '@lancedb/lancedb';
import { BooleanQuery, MatchQuery, Occur, Operator, PhraseQuery, type FullTextQuery } from '@lancedb/lancedb';
import type { Tables } from './connection';
import { searchFilter, type SearchFilter } from './filters';
import { ftsHasPositions, IVF_MAX_PARTITIONS } from './indexes';
import { containsPhrase, parseKeywordQuery } from './keywordQuery';
import type { VectorKind } from './schema';

export interface VectorHit {
  contentId: string;
  version: number;
  chunkIndex: number;
  kind: VectorKind;
  text: string;
  /** Cosine similarity for vector searches (1 = same direction), BM25 for keyword searches. */
  score: number;
}

export interface VectorSearchOptions extends SearchFilter {
  limit: number;
}

/** Partitions probed per query; more than a small table's partition count is fine (all are probed: exact). */
const IVF_NPROBES = 100;
const INDEX_RECHECK_MS = 10_000;
const COLUMNS = ['content_id', 'version', 'chunk_index', 'kind', 'text'];
/** Hits fetched per wanted hit when phrases filter them afterwards (keywordQuery.ts). */
const PHRASE_OVERFETCH = 5;
const PHRASE_MAX_ROWS = 500;

export function toHit(row: Record<string, unknown>, score: number): VectorHit {
  return {
    contentId: String(row.content_id),
    version: Number(row.version),
    chunkIndex: Number(row.chunk_index),
    kind: row.kind as VectorKind,
    text: String(row.text),
    score,
  };
}

export interface KnownIndexes {
  fts: boolean;
  /** The full-text index keeps token positions (phrase queries). */
  ftsPositions: boolean;
  vector: boolean;
  checkedAt: number;
}

/**
 * Whether what is known of a table's search indexes answers `need` without listing them again: once an index
 * exists it stays (indexes are replaced, never dropped); a missing full-text index is looked for on every keyword
 * query (it appears with the first processed content, and keyword search must see it at once), a missing vector
 * index at most every INDEX_RECHECK_MS (it only decides whether a short result is retried wider), and so is a
 * full-text index without positions (rebuilt with them in the background; phrases are checked afterwards meanwhile).
 */
export function indexKnowledgeFresh(known: KnownIndexes | undefined, need: 'fts' | 'ftsPositions' | 'vector', now: number): known is KnownIndexes {
  if (!known) return false;
  if (need === 'fts') return known.fts;
  return known[need] || (now - known.checkedAt < INDEX_RECHECK_MS && (need === 'vector' || known.fts));
}

export interface Search {
  vector(table: string, vector: number[], options: VectorSearchOptions): Promise<VectorHit[]>;
  text(table: string, query: string, options: VectorSearchOptions): Promise<VectorHit[]>;
  /** Drops what is known of a table's indexes (its handle was dropped). */
  forget(table: string): void;
  clear(): void;
}

/** The search modes: nearest vectors (cosine) and keywords (BM25), both within the filter's organization and kind. */
export function createSearch(tables: Pick<Tables, 'openIfExists' | 'reading'>): Search {
  const indexInfo = new Map<string, KnownIndexes>();

  async function indexesOf(name: string, table: lancedb.Table, need: 'fts' | 'ftsPositions' | 'vector'): Promise<KnownIndexes> {
    const known = indexInfo.get(name);
    if (indexKnowledgeFresh(known, need, Date.now())) return known;
    const indices = await tables.reading(name, table, (t) => t.listIndices());
    const info = {
      fts: indices.some((i) => i.columns.includes('text')),
      ftsPositions: ftsHasPositions(indices),
      vector: indices.some((i) => i.columns.includes('vector')),
      checkedAt: Date.now(),
    };
    indexInfo.set(name, info);
    return info;
  }

  return {
    async vector(name, vector, options) {
      const table = await tables.openIfExists(name);
      if (!table) return [];
      const search = (nprobes: number) =>
        tables.reading(name, table, (t) =>
          t
            .vectorSearch(vector)
            .distanceType('cosine')
            .where(searchFilter(options))
            .select([...COLUMNS, '_distance'])
            .limit(options.limit)
            .nprobes(nprobes) // only used once the ANN index exists
            .toArray(),
        ) as Promise<Record<string, unknown>[]>;
      let rows = await search(IVF_NPROBES);
      // Too few rows in the probed partitions: a narrow filter (a small organization in a shared table, a content
      // id list). Probe them all, an exact search over the filtered rows. Without the index the first search was
      // already exact.
      if (rows.length < options.limit && (await indexesOf(name, table, 'vector')).vector) rows = await search(IVF_MAX_PARTITIONS);
      return rows.map((r) => toHit(r, 1 - Number(r._distance)));
    },

    async text(name, query, options) {
      const table = await tables.openIfExists(name);
      if (!table) return [];
      const { phrases, words } = parseKeywordQuery(query);
      const indexes = await indexesOf(name, table, phrases.length ? 'ftsPositions' : 'fts');
      if (!indexes.fts) return [];
      const fts = (ftsQuery: string | FullTextQuery, limit: number) =>
        tables.reading(name, table, (t) =>
          t.search(ftsQuery, 'fts', 'text').where(searchFilter(options)).select([...COLUMNS, '_score']).limit(limit).toArray(),
        ) as Promise<Record<string, unknown>[]>;
      const ranked = words ? [[Occur.Should, new MatchQuery(words, 'text')] as [Occur, FullTextQuery]] : [];
      if (!phrases.length) return (await fts(words, options.limit)).map((r) => toHit(r, Number(r._score)));
      // All of a phrase's words, then the hits that hold them in order (compared on the text): the only way on an
      // index built without positions, and the way to the rows written since the index was last built, which
      // LanceDB's phrase queries do not see (it scans them for term queries only).
      const candidates = await fts(
        new BooleanQuery([...phrases.map((p): [Occur, FullTextQuery] => [Occur.Must, new MatchQuery(p, 'text', { operator: Operator.And })]), ...ranked]),
        Math.min(options.limit * PHRASE_OVERFETCH, Math.max(PHRASE_MAX_ROWS, options.limit)),
      );
      const checked = candidates.filter((r) => phrases.every((p) => containsPhrase(String(r.text), p)));
      // On a positional index, phrase queries proper too: stemmed like the index ("seas ices" is "sea ice").
      const positional = indexes.ftsPositions
        ? await fts(new BooleanQuery([...phrases.map((p): [Occur, FullTextQuery] => [Occur.Must, new PhraseQuery(p, 'text')]), ...ranked]), options.limit)
        : [];
      const best = new Map<string, Record<string, unknown>>();
      for (const row of [...positional, ...checked]) {
        const key = `${String(row.content_id)}:${String(row.chunk_index)}`;
        const known = best.get(key);
        if (!known || Number(row._score) > Number(known._score)) best.set(key, row);
      }
      return [...best.values()]
        .sort((a, b) => Number(b._score) - Number(a._score))
        .slice(0, options.limit)
        .map((r) => toHit(r, Number(r._score)));
    },

    forget: (name) => indexInfo.delete(name),
    clear: () => indexInfo.clear(),
  };
}
