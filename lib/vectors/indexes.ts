import * as lancedb from '@lancedb/lancedb';
import { processTempDir, removingTempLeftovers } from './scratch';

/**
 * The ANN index: IVF_FLAT (cosine). Measured at 100k x 384 lexical-hash chunks (docs/benchmarks.md): IVF_HNSW_SQ
 * needed ef 1000 for recall 0.95+, took 140 s to build and over 5 minutes to fold 2,000 new rows in (optimize); IVF_PQ
 * took 10 minutes to build and IVF_RQ stayed below 0.95 unless refined heavily. IVF_FLAT keeps full vectors, so the
 * probed partitions are scanned exactly: build ~25 s, optimize a few seconds, recall ~0.97 probing 100 of 256.
 * The hashed vectors are not clustered, hence the wide probe.
 */
/** KMeans trains on 256 rows per partition; fewer rows than that leave partitions empty. */
const IVF_ROWS_PER_PARTITION = 256;
export const IVF_MAX_PARTITIONS = 256;
/** Unindexed rows are searched by a flat scan; fold them into the indexes once there are this many. */
const OPTIMIZE_AFTER_ROWS = 1000;

export interface IndexSummary {
  columns: string[];
  indexType: string;
  numUnindexedRows?: number | null;
  /** LanceDB's index parameters (for the full-text index: `with_position` among them). */
  indexDetails?: unknown;
}

/** Whether the full-text index keeps token positions (phrase queries need them; indexes built before 2026-11 do not). */
export function ftsHasPositions(indices: readonly IndexSummary[]): boolean {
  const details = indices.find((i) => i.columns.includes('text'))?.indexDetails as { with_position?: unknown } | undefined;
  return details?.with_position === true;
}

/** A full-text index without positions: rebuilt with them in the background. */
export function needsPositionalFts(indices: readonly IndexSummary[]): boolean {
  return indices.some((i) => i.columns.includes('text')) && !ftsHasPositions(indices);
}

/** Partitions of the IVF index to build for a table of `rows` rows; null below the threshold (an exact scan is fast and exact there). */
export function ivfPartitionsFor(rows: number, threshold: number): number | null {
  return rows < threshold ? null : Math.min(IVF_MAX_PARTITIONS, Math.ceil(rows / IVF_ROWS_PER_PARTITION));
}

/** Fast indexes a table lacks: full text on `text`, bitmaps on the columns every search filters on. */
export function missingFastIndexes(indices: readonly IndexSummary[]): { fts: boolean; bitmaps: string[] } {
  const has = (column: string) => indices.some((i) => i.columns.includes(column));
  return { fts: !has('text'), bitmaps: ['organization_id', 'kind'].filter((c) => !has(c)) };
}

/** No vector index yet, or one of an older type (replaced). */
export function needsVectorIndex(indices: readonly IndexSummary[]): boolean {
  return indices.find((i) => i.columns.includes('vector'))?.indexType !== 'IvfFlat';
}

/** Enough rows are unindexed to fold them into the indexes (`optimize`). */
export function needsOptimize(indices: readonly IndexSummary[]): boolean {
  return indices.reduce((n, i) => Math.max(n, Number(i.numUnindexedRows ?? 0)), 0) > OPTIMIZE_AFTER_ROWS;
}

/**
 * The keyword index's tokenizer, spelled out (they are LanceDB 0.37's defaults, so indexes built before are the same):
 * lower case, ASCII folding, English stop words removed, words stemmed with Snowball English (Porter2), the algorithm
 * the offline embedder stems with (lib/embeddings/lexicalHash.ts; test/unit/stemming.test.ts checks they agree).
 * LanceDB tokenizes the query with the same options, so "zebras migrating" matches "Zebra migration". Token positions
 * are kept, so a quoted phrase is a phrase query (lib/vectors/search.ts); a stop word keeps its position, so
 * "sea of ice" does not match "sea ice" (any stop word fills the place: it matches "seas and ices").
 */
export const FTS_OPTIONS = {
  baseTokenizer: 'simple',
  language: 'English',
  lowercase: true,
  asciiFolding: true,
  stem: true,
  removeStopWords: true,
  withPosition: true,
} as const;

export interface IndexMaintenance {
  /** The fast indexes now (keyword search needs FTS at once), the slow ones in the background. */
  maintain(table: lancedb.Table): Promise<void>;
  /** Resolves once background maintenance has finished. */
  settled(): Promise<void>;
}

export interface IndexMaintenanceOptions {
  vectorIndexThreshold: number;
  vectorScratchDir: string;
  /** Hears of the temporary folders a build left and that were removed (tests, logs). */
  tempRemoved?: (names: string[]) => void;
}

/**
 * The full-text, organization and kind indexes right away, when missing (the table is small then, so this is quick).
 * Everything slow runs in the background, off the write's path (an upload's processing step): at most one run per
 * table at a time, a request while one runs is coalesced into one more run. Best-effort: a failed or interrupted
 * build is retried after the next write.
 */
export function createIndexMaintenance(options: IndexMaintenanceOptions): IndexMaintenance {
  const running = new Map<string, Promise<void>>();
  const rerun = new Set<string>();
  /** One build at a time per process: the temporary folder is the process's, and two builds would share the cores. */
  let building: Promise<unknown> = Promise.resolve();

  function build<T>(work: () => Promise<T>): Promise<T> {
    const tempDir = processTempDir(options.vectorScratchDir);
    const next = building.then(() => removingTempLeftovers(tempDir, work, options.tempRemoved));
    building = next.catch(() => undefined);
    return next;
  }

  async function maintainSlow(table: lancedb.Table): Promise<void> {
    const indices = await table.listIndices();
    // Keyword search keeps working on the old index while this one is built (phrases are then checked afterwards).
    if (needsPositionalFts(indices)) await build(() => table.createIndex('text', { config: lancedb.Index.fts(FTS_OPTIONS), replace: true }));
    if (needsVectorIndex(indices)) {
      const numPartitions = ivfPartitionsFor(await table.countRows(), options.vectorIndexThreshold);
      if (numPartitions === null) return;
      const config = lancedb.Index.ivfFlat({ distanceType: 'cosine', numPartitions });
      await build(() => table.createIndex('vector', { config, replace: true }));
    } else if (needsOptimize(indices)) await build(() => table.optimize());
  }

  function inBackground(table: lancedb.Table): void {
    const name = table.name;
    if (running.has(name)) {
      rerun.add(name);
      return;
    }
    const run = (async () => {
      do {
        rerun.delete(name);
        await maintainSlow(table).catch(bestEffortIndex);
      } while (rerun.has(name));
    })().finally(() => running.delete(name));
    running.set(name, run);
  }

  return {
    async maintain(table) {
      const missing = missingFastIndexes(await table.listIndices());
      if (missing.fts) await table.createIndex('text', { config: lancedb.Index.fts(FTS_OPTIONS), replace: false }).catch(bestEffortIndex);
      // Every search filters on organization and kind: without bitmaps each query evaluates the filter row by row
      // (measured at 100k chunks: the kind bitmap alone took keyword search from ~10 to ~5 ms, vector from ~15 to ~9).
      for (const column of missing.bitmaps) {
        await table.createIndex(column, { config: lancedb.Index.bitmap(), replace: false }).catch(bestEffortIndex);
      }
      inBackground(table);
    },
    async settled() {
      while (running.size) await Promise.all(running.values());
    },
  };
}

function bestEffortIndex(err: unknown): void {
  // Two writers may race to build the same index (the loser sees "already exists" or a commit conflict). Index
  // building is best-effort: the vectors are written either way, searches work without the index (exact scan), and
  // the next write tries again because the index is still missing.
  void err;
}
