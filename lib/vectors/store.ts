import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Config, ContentConfig } from '../config';
import { isVectorTable, sqlString, tableNameFor, vectorSchema, type VectorKind, type VectorRow, type VectorSource } from './schema';

export type { VectorRow, VectorKind, VectorSource };

export interface VectorHit {
  contentId: string;
  version: number;
  chunkIndex: number;
  kind: VectorKind;
  text: string;
  /** Cosine similarity for vector searches (1 = same direction), BM25 for keyword searches. */
  score: number;
}

export interface StoredDocumentVector {
  model: string;
  dimensions: number;
  vector: number[];
  source: VectorSource;
  version: number;
  chunks: number;
}

export interface VectorSearchOptions {
  organizationId: string;
  kind: VectorKind;
  limit: number;
  /** Restrict to these contents (filters answered by PostgreSQL first). */
  contentIds?: string[];
  excludeContentId?: string;
}

export interface VectorStore {
  /** Replaces every row of one content in one model's table (idempotent: activities may retry). */
  replaceContent(model: string, dimensions: number, organizationId: string, contentId: string, rows: VectorRow[]): Promise<void>;
  /** Replaces only the document-level vector of a content, in every table (a caller-supplied vector wins). */
  putDocumentVector(row: VectorRow, dimensions: number): Promise<void>;
  getDocumentVector(organizationId: string, contentId: string): Promise<StoredDocumentVector | null>;
  searchVector(model: string, dimensions: number, vector: number[], options: VectorSearchOptions): Promise<VectorHit[]>;
  searchText(model: string, dimensions: number, query: string, options: VectorSearchOptions): Promise<VectorHit[]>;
  deleteContent(organizationId: string, contentId: string): Promise<void>;
  deleteOrganization(organizationId: string): Promise<void>;
  countRows(organizationId: string, contentId?: string): Promise<number>;
  /** Dimension of an existing model table, or null when none exists yet. */
  tableDimensions(model: string): Promise<number | null>;
  /** Resolves once the index maintenance that writes started in the background has finished (tests, bench). */
  settled(): Promise<void>;
  /** Waits for background index maintenance, then closes the connection. */
  close(): Promise<void>;
}

/**
 * The ANN index: IVF_FLAT (cosine). Measured at 100k x 384 lexical-hash chunks (docs/benchmarks.md): IVF_HNSW_SQ
 * needed ef 1000 for recall 0.95+, took 140 s to build and over 5 minutes to fold 2,000 new rows in (optimize); IVF_PQ
 * took 10 minutes to build and IVF_RQ stayed below 0.95 unless refined heavily. IVF_FLAT keeps full vectors, so the
 * probed partitions are scanned exactly: build ~25 s, optimize a few seconds, recall ~0.97 probing 100 of 256.
 * The hashed vectors are not clustered, hence the wide probe.
 */
/** KMeans trains on 256 rows per partition; fewer rows than that leave partitions empty. */
const IVF_ROWS_PER_PARTITION = 256;
const IVF_MAX_PARTITIONS = 256;
/** Partitions probed per query; more than a small table's partition count is fine (all are probed: exact). */
const IVF_NPROBES = 100;
/** Unindexed rows are searched by a flat scan; fold them into the indexes once there are this many. */
const OPTIMIZE_AFTER_ROWS = 1000;
const INDEX_RECHECK_MS = 10_000;

function storageOptionsFor(uri: string, minio: Config['minio']): Record<string, string> | undefined {
  if (!uri.startsWith('s3://')) return undefined;
  return {
    aws_endpoint: `${minio.useSSL ? 'https' : 'http'}://${minio.endPoint}:${minio.port}`,
    aws_region: minio.region,
    allow_http: String(!minio.useSSL),
    aws_access_key_id: minio.accessKey,
    aws_secret_access_key: minio.secretKey,
  };
}

function dimensionsOf(schema: { fields: { name: string; type: { listSize?: number } }[] }): number | null {
  const field = schema.fields.find((f) => f.name === 'vector');
  return field?.type.listSize ?? null;
}

function andAll(parts: (string | null | undefined)[]): string {
  return parts.filter(Boolean).join(' AND ');
}

export function createVectorStore(content: ContentConfig, minio: Config['minio']): VectorStore {
  const uri = content.vectorUri;
  let connection: Promise<lancedb.Connection> | null = null;
  /**
   * Open table handles, per table name, for the life of the store: opening a table lists the folder (an S3 list
   * on MinIO) and re-reads its manifest. readConsistencyInterval 0 makes every read of a cached handle check for
   * the latest version, so other processes' writes and indexes are seen. Tables are never dropped (deletions
   * remove rows); still, a handle whose read fails is forgotten, so the next call opens the table afresh.
   */
  const tables = new Map<string, Promise<lancedb.Table>>();
  /**
   * Which search indexes a table has, so queries need not list them. Once both exist this stays (indexes are
   * replaced, never dropped); until then it is refreshed when a query needs it: the full-text index on every
   * keyword query (it appears with the first processed content, and keyword search must see it at once), the
   * vector index at most every INDEX_RECHECK_MS (it only decides whether a short result is retried wider).
   */
  const indexInfo = new Map<string, { fts: boolean; vector: boolean; checkedAt: number }>();
  /** Background maintenance per table: at most one at a time per process, and a request while one runs is coalesced. */
  const maintenance = new Map<string, Promise<void>>();
  const rerun = new Set<string>();

  function connect(): Promise<lancedb.Connection> {
    if (!connection) {
      if (!uri.includes('://')) mkdirSync(path.resolve(uri), { recursive: true });
      // readConsistencyInterval 0: the worker writes and the API reads, in different processes; always see the
      // latest committed version.
      connection = lancedb.connect(uri, { readConsistencyInterval: 0, storageOptions: storageOptionsFor(uri, minio) });
      connection.catch(() => {
        connection = null;
      });
    }
    return connection;
  }

  function cached(name: string, open: (db: lancedb.Connection) => Promise<lancedb.Table>): Promise<lancedb.Table> {
    let table = tables.get(name);
    if (!table) {
      table = connect().then(open);
      tables.set(name, table);
      table.catch(() => forget(name));
    }
    return table;
  }

  function forget(name: string): void {
    tables.delete(name);
    indexInfo.delete(name);
  }

  async function indexesOf(name: string, table: lancedb.Table, need: 'fts' | 'vector') {
    const known = indexInfo.get(name);
    const fresh = known && (known[need] || (need === 'vector' && Date.now() - known.checkedAt < INDEX_RECHECK_MS));
    if (known && fresh) return known;
    const indices = await reading(name, table, (t) => t.listIndices());
    const info = {
      fts: indices.some((i) => i.columns.includes('text')),
      vector: indices.some((i) => i.columns.includes('vector')),
      checkedAt: Date.now(),
    };
    indexInfo.set(name, info);
    return info;
  }

  /** Runs a read on a cached handle; on failure the handle is dropped (see `tables`) and the error passed on. */
  async function reading<T>(name: string, table: lancedb.Table, read: (table: lancedb.Table) => Promise<T>): Promise<T> {
    try {
      return await read(table);
    } catch (err) {
      forget(name);
      throw err;
    }
  }

  async function openIfExists(name: string): Promise<lancedb.Table | null> {
    if (tables.has(name)) return cached(name, (db) => db.openTable(name));
    // A missing table is not remembered: the worker may create it at any time.
    const names = await (await connect()).tableNames();
    return names.includes(name) ? cached(name, (db) => db.openTable(name)) : null;
  }

  async function openOrCreate(name: string, dimensions: number): Promise<lancedb.Table> {
    const table = await cached(name, (db) => db.createEmptyTable(name, vectorSchema(dimensions), { existOk: true }));
    const actual = dimensionsOf(await table.schema());
    if (actual !== dimensions) {
      throw new Error(`vector table ${name} holds ${actual}-dimension vectors, not ${dimensions}`);
    }
    return table;
  }

  async function allTables(): Promise<lancedb.Table[]> {
    const db = await connect();
    const names = (await db.tableNames()).filter(isVectorTable);
    return Promise.all(names.map((n) => cached(n, (c) => c.openTable(n))));
  }

  /**
   * The full-text, organization and kind indexes right away, when missing (keyword search needs the FTS index to exist;
   * the table is small then, so this is quick). Everything slow runs in the background, off the write's path (an
   * upload's processing step): the ANN index once the table passes the configured row threshold (below it an exact
   * scan is fast and exact), its replacement when the table carries an older index type, and `optimize()` once
   * enough rows are unindexed. Best-effort: a failed or interrupted build is retried after the next write.
   */
  async function maintainIndexes(table: lancedb.Table): Promise<void> {
    const indices = await table.listIndices();
    const has = (column: string) => indices.some((i) => i.columns.includes(column));
    if (!has('text')) await table.createIndex('text', { config: lancedb.Index.fts(), replace: false }).catch(bestEffortIndex);
    // Every search filters on organization and kind: without bitmaps each query evaluates the filter row by row
    // (measured at 100k chunks: the kind bitmap alone took keyword search from ~10 to ~5 ms, vector from ~15 to ~9).
    for (const column of ['organization_id', 'kind']) {
      if (!has(column)) await table.createIndex(column, { config: lancedb.Index.bitmap(), replace: false }).catch(bestEffortIndex);
    }
    inBackground(table);
  }

  function inBackground(table: lancedb.Table): void {
    const name = table.name;
    if (maintenance.has(name)) {
      rerun.add(name);
      return;
    }
    const run = (async () => {
      do {
        rerun.delete(name);
        await maintainSlowIndexes(table).catch(bestEffortIndex);
      } while (rerun.has(name));
    })().finally(() => maintenance.delete(name));
    maintenance.set(name, run);
  }

  async function maintainSlowIndexes(table: lancedb.Table): Promise<void> {
    const indices = await table.listIndices();
    const vectorIndex = indices.find((i) => i.columns.includes('vector'));
    if (!vectorIndex || vectorIndex.indexType !== 'IvfFlat') {
      const rows = await table.countRows();
      if (rows < content.vectorIndexThreshold) return;
      const numPartitions = Math.min(IVF_MAX_PARTITIONS, Math.ceil(rows / IVF_ROWS_PER_PARTITION));
      await withScratchDir(() =>
        table.createIndex('vector', { config: lancedb.Index.ivfFlat({ distanceType: 'cosine', numPartitions }), replace: true }),
      );
      return;
    }
    const unindexed = indices.reduce((n, i) => Math.max(n, Number(i.numUnindexedRows ?? 0)), 0);
    if (unindexed > OPTIMIZE_AFTER_ROWS) await withScratchDir(() => table.optimize());
  }

  /** One build at a time per process: TMPDIR is process-wide, and two builds would only share the same cores. */
  let building: Promise<unknown> = Promise.resolve();

  function withScratchDir<T>(work: () => Promise<T>): Promise<T> {
    const next = building.then(() => inScratchDir(work));
    building = next.catch(() => undefined);
    return next;
  }

  async function inScratchDir<T>(work: () => Promise<T>): Promise<T> {
    // Index builds write large temporary folders to $TMPDIR; keep them in a scratch folder we own and clean.
    const scratch = path.resolve(content.vectorScratchDir, `${process.pid}-${Date.now()}`);
    mkdirSync(scratch, { recursive: true });
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      return await work();
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  function baseFilter(options: VectorSearchOptions): string {
    return andAll([
      `organization_id = ${sqlString(options.organizationId)}`,
      `kind = ${sqlString(options.kind)}`,
      options.contentIds ? `content_id IN (${options.contentIds.map(sqlString).join(', ')})` : null,
      options.excludeContentId ? `content_id != ${sqlString(options.excludeContentId)}` : null,
    ]);
  }

  function toHit(row: Record<string, unknown>, score: number): VectorHit {
    return {
      contentId: String(row.content_id),
      version: Number(row.version),
      chunkIndex: Number(row.chunk_index),
      kind: row.kind as VectorKind,
      text: String(row.text),
      score,
    };
  }

  const columns = ['content_id', 'version', 'chunk_index', 'kind', 'text'];

  return {
    async replaceContent(model, dimensions, organizationId, contentId, rows) {
      const table = await openOrCreate(tableNameFor(model, dimensions), dimensions);
      await table.delete(andAll([`organization_id = ${sqlString(organizationId)}`, `content_id = ${sqlString(contentId)}`]));
      if (rows.length) await table.add(rows as unknown as Record<string, unknown>[]);
      await maintainIndexes(table);
    },

    async putDocumentVector(row, dimensions) {
      for (const table of await allTables()) {
        await table.delete(
          andAll([
            `organization_id = ${sqlString(row.organization_id)}`,
            `content_id = ${sqlString(row.content_id)}`,
            `kind = 'document'`,
          ]),
        );
      }
      const table = await openOrCreate(tableNameFor(row.model, dimensions), dimensions);
      await table.add([row as unknown as Record<string, unknown>]);
      await maintainIndexes(table);
    },

    async getDocumentVector(organizationId, contentId) {
      for (const table of await allTables()) {
        const where = andAll([`organization_id = ${sqlString(organizationId)}`, `content_id = ${sqlString(contentId)}`]);
        const rows = await table.query().where(`${where} AND kind = 'document'`).limit(1).toArray();
        const row = rows[0] as Record<string, unknown> | undefined;
        if (!row) continue;
        const vector = Array.from(row.vector as Iterable<number>);
        const chunks = await table.countRows(`${where} AND kind = 'chunk'`);
        return {
          model: String(row.model),
          dimensions: vector.length,
          vector,
          source: row.source as VectorSource,
          version: Number(row.version),
          chunks,
        };
      }
      return null;
    },

    async searchVector(model, dimensions, vector, options) {
      const name = tableNameFor(model, dimensions);
      const table = await openIfExists(name);
      if (!table) return [];
      const search = (nprobes: number) =>
        reading(name, table, (t) =>
          t
            .vectorSearch(vector)
            .distanceType('cosine')
            .where(baseFilter(options))
            .select([...columns, '_distance'])
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

    async searchText(model, dimensions, query, options) {
      const name = tableNameFor(model, dimensions);
      const table = await openIfExists(name);
      if (!table) return [];
      if (!(await indexesOf(name, table, 'fts')).fts) return [];
      const rows = (await reading(name, table, (t) =>
        t
          .search(query, 'fts', 'text')
          .where(baseFilter(options))
          .select([...columns, '_score'])
          .limit(options.limit)
          .toArray(),
      )) as Record<string, unknown>[];
      return rows.map((r) => toHit(r, Number(r._score)));
    },

    async deleteContent(organizationId, contentId) {
      for (const table of await allTables()) {
        await table.delete(andAll([`organization_id = ${sqlString(organizationId)}`, `content_id = ${sqlString(contentId)}`]));
      }
    },

    async deleteOrganization(organizationId) {
      for (const table of await allTables()) await table.delete(`organization_id = ${sqlString(organizationId)}`);
    },

    async countRows(organizationId, contentId) {
      let total = 0;
      for (const table of await allTables()) {
        total += await table.countRows(
          andAll([`organization_id = ${sqlString(organizationId)}`, contentId ? `content_id = ${sqlString(contentId)}` : null]),
        );
      }
      return total;
    },

    async tableDimensions(model) {
      const db = await connect();
      const prefix = tableNameFor(model, 0).replace(/0$/, '');
      const name = (await db.tableNames()).find((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)));
      return name ? Number(name.slice(prefix.length)) : null;
    },

    async settled() {
      while (maintenance.size) await Promise.all(maintenance.values());
    },

    async close() {
      await this.settled();
      tables.clear();
      indexInfo.clear();
      if (connection) (await connection).close();
      connection = null;
    },
  };
}

function bestEffortIndex(err: unknown): void {
  // Two writers may race to build the same index (the loser sees "already exists" or a commit conflict). Index
  // building is best-effort: the vectors are written either way, searches work without the index (exact scan), and
  // the next write tries again because the index is still missing.
  void err;
}
