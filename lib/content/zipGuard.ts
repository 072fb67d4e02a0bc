import { inflateRawSync } from 'node:zlib';

/**
 * A check of a ZIP container (DOCX) before a library unpacks it in memory. A ZIP names each entry's unpacked size,
 * but nothing forces the truth: DEFLATE expands up to ~1,000x, so a few MB upload can unpack to gigabytes and take
 * the worker down. Here every entry is inflated with a hard output cap equal to its declared size (and all of them
 * together to `maxTotalBytes`), so an archive that lies about its sizes, or tells the truth about being huge, is
 * refused before anything else reads it. Pure: bytes in, a verdict out.
 */
export interface ZipLimits {
  /** Sum of the entries' unpacked sizes. */
  maxTotalBytes: number;
  maxEntries: number;
}

export class ZipRefused extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

/** Throws ZipRefused when the archive is malformed, uses ZIP64, or unpacks past the limits. */
export function checkZip(bytes: Buffer, limits: ZipLimits): void {
  const eocd = findEndOfCentralDirectory(bytes);
  const entries = bytes.readUInt16LE(eocd + 10);
  const directoryOffset = bytes.readUInt32LE(eocd + 16);
  if (entries > limits.maxEntries) throw new ZipRefused(`archive has ${entries} entries (at most ${limits.maxEntries})`);
  if (directoryOffset === ZIP64_MARK) throw new ZipRefused('ZIP64 archives are not supported');

  let total = 0;
  let at = directoryOffset;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new ZipRefused('malformed central directory');
    const method = bytes.readUInt16LE(at + 10);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const declaredSize = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localOffset = bytes.readUInt32LE(at + 42);
    if ([compressedSize, declaredSize, localOffset].includes(ZIP64_MARK)) throw new ZipRefused('ZIP64 archives are not supported');
    total += declaredSize;
    if (total > limits.maxTotalBytes) throw new ZipRefused(`archive unpacks to more than ${limits.maxTotalBytes} bytes`);
    const data = entryData(bytes, localOffset, compressedSize);
    if (method === 8) {
      try {
        // One byte of slack past the declared size: the cap must trip on a liar, not on an honest entry.
        inflateRawSync(data, { maxOutputLength: declaredSize + 1 });
      } catch {
        throw new ZipRefused('an entry unpacks past its declared size or is corrupt');
      }
    } else if (method !== 0) {
      throw new ZipRefused(`unsupported compression method ${method}`);
    } else if (compressedSize !== declaredSize) {
      throw new ZipRefused('a stored entry does not match its declared size');
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of up to 65,535 bytes at the very end.
  const earliest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= earliest; at--) {
    if (bytes.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  throw new ZipRefused('not a ZIP archive');
}

function entryData(bytes: Buffer, localOffset: number, compressedSize: number): Buffer {
  if (localOffset + 30 > bytes.length || bytes.readUInt32LE(localOffset) !== LOCAL_SIGNATURE) throw new ZipRefused('malformed local header');
  const start = localOffset + 30 + bytes.readUInt16LE(localOffset + 26) + bytes.readUInt16LE(localOffset + 28);
  if (start + compressedSize > bytes.length) throw new ZipRefused('an entry runs past the end of the archive');
  return bytes.subarray(start, start + compressedSize);
}
