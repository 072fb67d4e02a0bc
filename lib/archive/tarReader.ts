import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Header, Pax } from 'tar';

const BLOCK = 512;
/** A PAX extended header larger than this is not ours (ours hold a path, a size and a time). */
const MAX_PAX_BYTES = 64 * 1024;

export interface TarEntry {
  path: string;
  size: number;
  /** The entry's bytes: read it (or not) before asking for the next entry; what is left unread is skipped. */
  body: Readable;
}

export class ArchiveFormatError extends Error {}

export interface ReadLimits {
  /** Entries of any type (directories and links count too). */
  maxEntries: number;
  /** Bytes of all entries together, decompressed: a gzip bomb ends here. */
  maxTotalBytes: number;
  /** Called for every chunk read (a caller's heartbeat). */
  onBytes?: (bytes: number) => void;
}

const NO_LIMITS: ReadLimits = { maxEntries: Infinity, maxTotalBytes: Infinity };

/** Pulls exact byte counts from a stream of chunks, keeping at most one chunk beyond what was asked. */
class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(
    source: AsyncIterable<Buffer>,
    private readonly onBytes?: (bytes: number) => void,
  ) {
    this.chunks = source[Symbol.asyncIterator]();
  }

  /** Up to `max` bytes (fewer only at the end of the stream); an empty buffer at the end. */
  async some(max: number): Promise<Buffer> {
    if (this.buffered.length === 0) {
      let next: IteratorResult<Buffer>;
      try {
        next = await this.chunks.next();
      } catch (err) {
        // zlib's errors (Z_DATA_ERROR: "incorrect header check") say the bytes are not a gzip stream.
        if (String((err as { code?: unknown }).code ?? '').startsWith('Z_')) throw new ArchiveFormatError(`not a gzip-compressed archive (${(err as Error).message})`);
        throw err;
      }
      if (next.done) return Buffer.alloc(0);
      this.buffered = next.value;
      this.onBytes?.(next.value.length);
    }
    const out = this.buffered.subarray(0, max);
    this.buffered = this.buffered.subarray(out.length);
    return out;
  }

  async exactly(n: number): Promise<Buffer | null> {
    const parts: Buffer[] = [];
    let got = 0;
    while (got < n) {
      const part = await this.some(n - got);
      if (part.length === 0) return got === 0 ? null : Promise.reject(new ArchiveFormatError('the archive ends inside an entry'));
      parts.push(part);
      got += part.length;
    }
    return Buffer.concat(parts, n);
  }

  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      const part = await this.some(left);
      if (part.length === 0) throw new ArchiveFormatError('the archive ends inside an entry');
      left -= part.length;
    }
  }
}

/**
 * The regular files of a gzip-compressed tar (ustar with PAX extended headers, as TarGzWriter writes them), one at
 * a time, each body streamed: memory stays at one chunk whatever the entry's size. Directories, links and other
 * types are skipped; names are checked by the caller. A truncated or malformed archive throws ArchiveFormatError.
 */
export async function* readTarGz(source: Readable, limits: ReadLimits = NO_LIMITS): AsyncGenerator<TarEntry> {
  const gunzip = createGunzip();
  source.on('error', (err) => gunzip.destroy(err));
  const reader = new ByteReader(source.pipe(gunzip), limits.onBytes);
  let pax: Pax | null = null;
  let entries = 0;
  let totalBytes = 0;
  try {
    for (;;) {
      const block = await reader.exactly(BLOCK);
      if (block === null) return;
      if (block.every((b) => b === 0)) return; // the end-of-archive blocks
      const header = new Header(block, 0, pax ?? undefined);
      if (!header.cksumValid) throw new ArchiveFormatError('a tar header has a wrong checksum');
      entries += 1;
      if (entries > limits.maxEntries) throw new ArchiveFormatError(`more than ${limits.maxEntries} entries`);
      const size = header.size ?? 0;
      totalBytes += pax?.size ?? size;
      if (totalBytes > limits.maxTotalBytes) throw new ArchiveFormatError(`more than ${limits.maxTotalBytes} bytes once decompressed`);
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      if (header.type === 'ExtendedHeader') {
        if (size > MAX_PAX_BYTES) throw new ArchiveFormatError('an extended header is too large');
        const data = await reader.exactly(padded);
        if (data === null) throw new ArchiveFormatError('the archive ends inside an extended header');
        pax = Pax.parse(data.subarray(0, size).toString('utf8'), pax ?? undefined, false);
        continue;
      }
      const path = pax?.path ?? header.path ?? '';
      const entrySize = pax?.size ?? size;
      pax = null;
      if (header.type !== 'File' && header.type !== 'OldFile') {
        await reader.skip(Math.ceil(entrySize / BLOCK) * BLOCK);
        continue;
      }
      let left = entrySize;
      // The read in flight: the next header is read only after it (one reader, one position).
      let pending: Promise<unknown> = Promise.resolve();
      // The source's own failure (a storage connection lost mid-read), kept to be thrown as it is, not as a bad archive.
      let failure: Error | null = null;
      const body = new Readable({
        read() {
          if (left === 0) {
            this.push(null);
            return;
          }
          pending = reader.some(Math.min(left, 64 * 1024)).then(
            (chunk) => {
              if (chunk.length === 0) {
                this.destroy(new ArchiveFormatError('the archive ends inside an entry'));
                return;
              }
              left -= chunk.length;
              this.push(chunk);
            },
            (err: Error) => {
              failure = err;
              this.destroy(err);
            },
          );
        },
      });
      yield { path, size: entrySize, body };
      // What the consumer left unread, then the padding to the next block.
      body.pause();
      await pending;
      if (failure) throw failure;
      if (left > 0) {
        body.destroy();
        await reader.skip(left);
      }
      await reader.skip(Math.ceil(entrySize / BLOCK) * BLOCK - entrySize);
    }
  } finally {
    source.unpipe(gunzip);
    gunzip.destroy();
    // An archive read from object storage: its connection ends with the read.
    source.destroy();
  }
}

/** An entry's whole body, refused past `max` bytes (record parts, JSON documents). */
export async function readEntryBody(entry: TarEntry, max: number): Promise<Buffer> {
  if (entry.size > max) throw new ArchiveFormatError(`${entry.path} is ${entry.size} bytes, more than ${max}`);
  const parts: Buffer[] = [];
  for await (const chunk of entry.body) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
