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
  close(): Promise<void>;
}

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

  async function openIfExists(name: string): Promise<lancedb.Table | null> {
    const db = await connect();
    const names = await db.tableNames();
    return names.includes(name) ? db.openTable(name) : null;
  }

  async function openOrCreate(name: string, dimensions: number): Promise<lancedb.Table> {
    const db = await connect();
    const table = await db.createEmptyTable(name, vectorSchema(dimensions), { existOk: true });
    const actual = dimensionsOf(await table.schema());
    if (actual !== dimensions) {
      throw new Error(`vector table ${name} holds ${actual}-dimension vectors, not ${dimensions}`);
    }
    return table;
  }

  async function allTables(): Promise<lancedb.Table[]> {
    const db = await connect();
    const names = (await db.tableNames()).filter(isVectorTable);
    return Promise.all(names.map((n) => db.openTable(n)));
  }

  /**
   * Full-text and organization indexes right away (keyword search needs the FTS index to exist; rows added later
   * are still searched, unindexed, until the next optimize). The ANN index (IVF_HNSW_SQ, cosine) once the table
   * passes the configured row threshold: below it an exact scan is fast and exact.
   */
  async function maintainIndexes(table: lancedb.Table): Promise<void> {
    const indices = await table.listIndices();
    const has = (column: string) => indices.find((i) => i.columns.includes(column));
    if (!has('text')) await table.createIndex('text', { config: lancedb.Index.fts(), replace: false }).catch(bestEffortIndex);
    if (!has('organization_id')) {
      await table.createIndex('organization_id', { config: lancedb.Index.bitmap(), replace: false }).catch(bestEffortIndex);
    }
    const rows = await table.countRows();
    const vectorIndex = has('vector');
    if (!vectorIndex && rows >= content.vectorIndexThreshold) {
      await withScratchDir(() =>
        table.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine' }), replace: false }),
      ).catch(bestEffortIndex);
    } else {
      const unindexed = indices.reduce((n, i) => Math.max(n, Number(i.numUnindexedRows ?? 0)), 0);
      // Fold new rows into the indexes now and then, so searches stay index-backed.
      if (unindexed > 1000) await withScratchDir(() => table.optimize()).catch(bestEffortIndex);
    }
  }

  async function withScratchDir<T>(work: () => Promise<T>): Promise<T> {
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
      const table = await openIfExists(tableNameFor(model, dimensions));
      if (!table) return [];
      const rows = (await table
        .vectorSearch(vector)
        .distanceType('cosine')
        .where(baseFilter(options))
        .select(columns)
        .limit(options.limit)
        // Only used when an ANN index exists: a wide candidate list keeps recall near exact search. HNSW refuses
        // ef below k (limit x refine factor): hybrid search asks for 5x its limit, e.g. 50 x 4 = 200.
        .ef(Math.max(100, options.limit * 4))
        .refineFactor(4)
        .toArray()) as Record<string, unknown>[];
      return rows.map((r) => toHit(r, 1 - Number(r._distance)));
    },

    async searchText(model, dimensions, query, options) {
      const table = await openIfExists(tableNameFor(model, dimensions));
      if (!table) return [];
      const indices = await table.listIndices();
      if (!indices.some((i) => i.columns.includes('text'))) return [];
      const rows = (await table
        .search(query, 'fts', 'text')
        .where(baseFilter(options))
        .select(columns)
        .limit(options.limit)
        .toArray()) as Record<string, unknown>[];
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

    async close() {
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
