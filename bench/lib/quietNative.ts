// Imported first by bench/run.ts: LanceDB's native logger reads LANCEDB_LOG when it loads, and its deprecation
// warnings (one per search) would drown the bench's own output.
process.env.LANCEDB_LOG ??= 'error';
export {};
