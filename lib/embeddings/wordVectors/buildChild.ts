import { buildWordVectorsFile } from './store';

/** Child entry of store.ts: builds the word-vector file and exits (0 on success). */
try {
  buildWordVectorsFile();
  process.exit(0);
} catch (err) {
  console.error(`word vectors: ${(err as Error).message}`);
  process.exit(1);
}
