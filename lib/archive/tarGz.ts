import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Pax } from 'tar';

const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK * 2);

export interface ArchiveEntry {
  path: string;
  size: number;
  sha256: string;
  /** Extra facts the caller lists in its manifest (record counts, what a file is). */
  [extra: string]: unknown;
}

export class EntrySizeError extends Error {}

/**
 * A streamed `.tar.gz` (POSIX tar, PAX headers where a name needs them: non-ASCII or long), written to `sink` with
 * backpressure: memory stays bounded whatever the archive's size. Headers come from node-tar (`Header`, `Pax`), so
 * any tar reader opens the result. Every entry's size and SHA-256 are recorded in `entries`, and the SHA-256 and
 * length of the compressed stream itself in `sha256()` / `compressedBytes` once `finish` resolved.
 *
 * A tar header carries the entry's size before its data: a streamed entry must announce it (`addStream`) and
 * deliver exactly that many bytes, or the archive is abandoned (`EntrySizeError`).
 */
export class TarGzWriter {
  readonly entries: ArchiveEntry[] = [];
  compressedBytes = 0;
  private readonly gzip = createGzip({ level: 6 });
  private readonly hash = createHash('sha256');
  private readonly piped: Promise<void>;
  private readonly names = new Set<string>();
  private digest: string | null = null;
  private failure: Error | null = null;

  constructor(sink: Writable) {
    const tap = new PassThrough();
    tap.on('data', (chunk: Buffer) => {
      this.hash.update(chunk);
      this.compressedBytes += chunk.length;
    });
    this.piped = pipeline(this.gzip, tap, sink);
    this.piped.catch((err: Error) => {
      this.failure = err;
    });
  }

  /** A whole entry held in memory (documents, record parts). */
  async addBuffer(path: string, data: Buffer, mtime: Date, extra: Record<string, unknown> = {}): Promise<ArchiveEntry> {
    return this.addStream(path, data.length, mtime, [data], extra);
  }

  /** An entry of `size` bytes streamed from `source` (an object's body); `onData` sees each chunk (progress). */
  async addStream(
    path: string,
    size: number,
    mtime: Date,
    source: AsyncIterable<Buffer | string> | Iterable<Buffer>,
    extra: Record<string, unknown> = {},
    onData?: (bytes: number) => void,
  ): Promise<ArchiveEntry> {
    if (this.names.has(path)) throw new Error(`duplicate archive entry ${path}`);
    this.names.add(path);
    await this.write(headerBlocks(path, size, mtime));
    const hash = createHash('sha256');
    let written = 0;
    for await (const piece of source) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      written += chunk.length;
      if (written > size) throw new EntrySizeError(`${path}: more than the ${size} bytes announced`);
      hash.update(chunk);
      await this.write(chunk);
      onData?.(chunk.length);
    }
    if (written !== size) throw new EntrySizeError(`${path}: ${written} bytes instead of the ${size} announced`);
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (padding) await this.write(ZEROS.subarray(0, padding));
    const entry: ArchiveEntry = { path, size, sha256: hash.digest('hex'), ...extra };
    this.entries.push(entry);
    return entry;
  }

  /** Ends the archive (two zero blocks), flushes the compression and waits until the sink has taken everything. */
  async finish(): Promise<void> {
    await this.write(ZEROS);
    this.gzip.end();
    await this.piped;
    this.digest = this.hash.digest('hex');
  }

  /** Gives up: the sink is destroyed with `err` (an upload is then aborted). */
  abort(err: Error): void {
    this.gzip.destroy(err);
  }

  sha256(): string {
    if (!this.digest) throw new Error('the archive is not finished');
    return this.digest;
  }

  private async write(chunk: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.gzip.write(chunk)) {
      await Promise.race([once(this.gzip, 'drain'), this.piped.then(() => undefined)]);
    }
    if (this.failure) throw this.failure;
  }
}

/** The header of a regular file entry, preceded by a PAX extended header when the name does not fit ustar. */
export function headerBlocks(path: string, size: number, mtime: Date): Buffer {
  const data = { path, size, mtime, mode: 0o644, uid: 0, gid: 0, uname: '', gname: '', type: 'File' as const };
  const block = Buffer.alloc(BLOCK);
  const needPax = new Header(data).encode(block);
  if (!needPax) return block;
  return Buffer.concat([new Pax({ path, size, mtime }).encode(), block]);
}

/**
 * Records as JSON Lines, cut into parts (`<dir>/part-00001.jsonl`, ...) of about `partBytes` each, so a
 * collection of any length is written with one part in memory. Each part's entry lists its record count.
 */
export class JsonlParts {
  private lines: Buffer[] = [];
  private bytes = 0;
  private records = 0;
  private part = 0;
  total = 0;

  constructor(
    private readonly writer: TarGzWriter,
    private readonly dir: string,
    private readonly mtime: Date,
    private readonly partBytes = 4 * 1024 * 1024,
  ) {}

  async add(record: unknown): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    this.lines.push(line);
    this.bytes += line.length;
    this.records++;
    this.total++;
    if (this.bytes >= this.partBytes) await this.flush();
  }

  /** Writes the last part; a collection without records gets no part at all. */
  async close(): Promise<void> {
    if (this.records) await this.flush();
  }

  private async flush(): Promise<void> {
    this.part++;
    const path = `${this.dir}/part-${String(this.part).padStart(5, '0')}.jsonl`;
    const data = Buffer.concat(this.lines, this.bytes);
    const records = this.records;
    this.lines = [];
    this.bytes = 0;
    this.records = 0;
    await this.writer.addBuffer(path, data, this.mtime, { kind: 'records', records });
  }
}
