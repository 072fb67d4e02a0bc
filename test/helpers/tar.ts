import { Parser, type ReadEntry } from 'tar';

/** The entries of an uncompressed tar, read with node-tar's parser: path -> bytes, in archive order. */
export async function readTarEntries(tar: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const parser = new Parser();
  parser.on('entry', (entry: ReadEntry) => {
    const parts: Buffer[] = [];
    entry.on('data', (c: Buffer) => parts.push(c));
    entry.on('end', () => files.set(entry.path, Buffer.concat(parts)));
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('end', () => resolve());
    parser.on('error', reject);
    parser.end(tar);
  });
  return files;
}
