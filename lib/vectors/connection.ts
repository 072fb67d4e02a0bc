import { mkdirSync } from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Config } from '../config';
import { isVectorTable, vectorSchema } from './schema';

/** LanceDB's S3 settings for an `s3://` location (the MinIO credentials); none for a local folder. */
export function storageOptionsFor(uri: string, minio: Config['minio']): Record<string, string> | undefined {
  if (!uri.startsWith('s3://')) return undefined;
  return {
    aws_endpoint: `${minio.useSSL ? 'https' : 'http'}://${minio.endPoint}:${minio.port}`,
    aws_region: minio.region,
    allow_http: String(!minio.useSSL),
    aws_access_key_id: minio.accessKey,
    aws_secret_access_key: minio.secretKey,
  };
}

/** The dimension of a table's `vector` column, from its Arrow schema. */
export function dimensionsOf(schema: { fields: { name: string; type: { listSize?: number } }[] }): number | null {
  const field = schema.fields.find((f) => f.name === 'vector');
  return field?.type.listSize ?? null;
}

export interface Tables {
  connect(): Promise<lancedb.Connection>;
  /** The table, if it exists; a missing table is not remembered (the worker may create it at any time). */
  openIfExists(name: string): Promise<lancedb.Table | null>;
  /** The table, created empty when missing; refused when it holds vectors of another dimension. */
  openOrCreate(name: string, dimensions: number): Promise<lancedb.Table>;
  /** Every model's table. */
  all(): Promise<lancedb.Table[]>;
  /** Runs a read on a cached handle; on failure the handle is dropped and the error passed on. */
  reading<T>(name: string, table: lancedb.Table, read: (table: lancedb.Table) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * One connection per store, opened on first use, and the open table handles, per table name, for the life of the
 * store: opening a table lists the folder (an S3 list on MinIO) and re-reads its manifest. readConsistencyInterval 0
 * makes every read of a cached handle check for the latest version, so other processes' writes and indexes are seen
 * (the worker writes and the API reads). Tables are never dropped (deletions remove rows); still, a handle whose
 * read fails is forgotten, so the next call opens the table afresh. `forgotten` hears of it (cached index knowledge).
 */
export function createTables(uri: string, minio: Config['minio'], forgotten: (name: string) => void): Tables {
  let connection: Promise<lancedb.Connection> | null = null;
  const tables = new Map<string, Promise<lancedb.Table>>();

  function connect(): Promise<lancedb.Connection> {
    if (!connection) {
      if (!uri.includes('://')) mkdirSync(path.resolve(uri), { recursive: true });
      connection = lancedb.connect(uri, { readConsistencyInterval: 0, storageOptions: storageOptionsFor(uri, minio) });
      connection.catch(() => {
        connection = null;
      });
    }
    return connection;
  }

  function forget(name: string): void {
    tables.delete(name);
    forgotten(name);
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

  return {
    connect,
    async openIfExists(name) {
      if (tables.has(name)) return cached(name, (db) => db.openTable(name));
      const names = await (await connect()).tableNames();
      return names.includes(name) ? cached(name, (db) => db.openTable(name)) : null;
    },
    async openOrCreate(name, dimensions) {
      const table = await cached(name, (db) => db.createEmptyTable(name, vectorSchema(dimensions), { existOk: true }));
      const actual = dimensionsOf(await table.schema());
      if (actual !== dimensions) throw new Error(`vector table ${name} holds ${actual}-dimension vectors, not ${dimensions}`);
      return table;
    },
    async all() {
      const db = await connect();
      const names = (await db.tableNames()).filter(isVectorTable);
      return Promise.all(names.map((n) => cached(n, (c) => c.openTable(n))));
    },
    async reading(name, table, read) {
      try {
        return await read(table);
      } catch (err) {
        forget(name);
        throw err;
      }
    },
    async close() {
      for (const name of [...tables.keys()]) forget(name);
      if (connection) (await connection).close();
      connection = null;
    },
  };
}
