import type { Config, ContentConfig } from '../config';
import { createTables } from './connection';
import { andAll, ownerFilter } from './filters';
import { createIndexMaintenance } from './indexes';
import { vectorRowsTable } from './arrowRows';
import { tableNameFor, type VectorKind, type VectorRow, type VectorSource } from './schema';
import { createSearch, type VectorHit, type VectorSearchOptions } from './search';

export type { VectorRow, VectorKind, VectorSource, VectorHit, VectorSearchOptions };

export interface StoredDocumentVector {
  model: string;
  dimensions: number;
  vector: number[];
  source: VectorSource;
  version: number;
  chunks: number;
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
  /** Removes one organization's vectors of one model (its custom model is deleted); other organizations' stay. */
  deleteModelVectors(organizationId: string, model: string, dimensions: number): Promise<void>;
  countRows(organizationId: string, contentId?: string): Promise<number>;
  /** Resolves once the index maintenance that writes started in the background has finished (tests, bench). */
  settled(): Promise<void>;
  /** Waits for background index maintenance, then closes the connection. */
  close(): Promise<void>;
}

export interface VectorStoreOptions {
  /** Hears of the temporary folders an index build left in the process's scratch folder, once removed. */
  tempRemoved?: (names: string[]) => void;
}

/**
 * Vectors in LanceDB, one table per embedding model (see schema.ts): the table handles (connection.ts), index
 * maintenance (indexes.ts, with its temporary files in the process's scratch folder: scratch.ts) and the search
 * modes (search.ts), composed.
 */
export function createVectorStore(content: ContentConfig, minio: Config['minio'], options: VectorStoreOptions = {}): VectorStore {
  const tables = createTables(content.vectorUri, minio, (name) => search.forget(name));
  const search = createSearch(tables);
  const indexes = createIndexMaintenance({ ...content, tempRemoved: options.tempRemoved });

  return {
    async replaceContent(model, dimensions, organizationId, contentId, rows) {
      const table = await tables.openOrCreate(tableNameFor(model, dimensions), dimensions);
      await table.delete(ownerFilter(organizationId, contentId));
      if (rows.length) await table.add(vectorRowsTable(rows, dimensions));
      await indexes.maintain(table);
    },

    async putDocumentVector(row, dimensions) {
      for (const table of await tables.all()) {
        await table.delete(andAll([ownerFilter(row.organization_id, row.content_id), `kind = 'document'`]));
      }
      const table = await tables.openOrCreate(tableNameFor(row.model, dimensions), dimensions);
      await table.add(vectorRowsTable([row], dimensions));
      await indexes.maintain(table);
    },

    async getDocumentVector(organizationId, contentId) {
      const where = ownerFilter(organizationId, contentId);
      for (const table of await tables.all()) {
        const rows = await table.query().where(`${where} AND kind = 'document'`).limit(1).toArray();
        const row = rows[0] as Record<string, unknown> | undefined;
        if (!row) continue;
        const vector = Array.from(row.vector as Iterable<number>);
        const chunks = await table.countRows(`${where} AND kind = 'chunk'`);
        return { model: String(row.model), dimensions: vector.length, vector, source: row.source as VectorSource, version: Number(row.version), chunks };
      }
      return null;
    },

    searchVector: (model, dimensions, vector, options) => search.vector(tableNameFor(model, dimensions), vector, options),
    searchText: (model, dimensions, query, options) => search.text(tableNameFor(model, dimensions), query, options),

    async deleteContent(organizationId, contentId) {
      for (const table of await tables.all()) await table.delete(ownerFilter(organizationId, contentId));
    },

    async deleteOrganization(organizationId) {
      for (const table of await tables.all()) await table.delete(ownerFilter(organizationId));
    },

    async deleteModelVectors(organizationId, model, dimensions) {
      const table = await tables.openIfExists(tableNameFor(model, dimensions));
      if (table) await table.delete(ownerFilter(organizationId));
    },

    async countRows(organizationId, contentId) {
      let total = 0;
      for (const table of await tables.all()) total += await table.countRows(ownerFilter(organizationId, contentId));
      return total;
    },

    settled: () => indexes.settled(),

    async close() {
      await indexes.settled();
      await tables.close();
      search.clear();
    },
  };
}
