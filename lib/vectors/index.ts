export * from './store';
export { tableNameFor, type VectorRow, type VectorKind, type VectorSource } from './schema';
