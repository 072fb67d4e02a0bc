/**
 * The compact binary form of a word-vector table, built once from the package's JSON (convert.ts) and read by
 * every process that embeds (store.ts): the 300 MB JSON takes seconds and gigabytes to parse, this file is read in
 * one call and used in place (typed arrays over its bytes, no per-word objects on the heap).
 *
 * Layout, little-endian, every section 4-byte aligned:
 *   header    u32 × 8: magic, format version, words, dimensions, hash-table slots, blob bytes, vocabulary size of
 *             the source (for the frequency estimate), reserved
 *   common    f32 × dimensions: the common component removed from every text vector (SIF)
 *   ranks     u32 × words: each word's frequency rank in the source (0 = commonest)
 *   scales    f32 × words: each word vector's int8 scale
 *   offsets   u32 × (words + 1): each word's bytes in the blob
 *   table     i32 × slots: open addressing over the words' hashes (word index + 1; 0 = empty)
 *   vectors   i8 × words × dimensions: each word vector quantized to int8 (value = int8 × scale)
 *   blob      the words, UTF-8, one after the other
 */
export const WORD_VECTORS_MAGIC = 0x3156574c; // "LWV1"
export const WORD_VECTORS_FORMAT = 1;
const HEADER_WORDS = 8;

export interface WordVectorEntry {
  word: string;
  rank: number;
  vector: Float32Array;
}

/** 32-bit FNV-1a over UTF-8 bytes: the table's hash, the same on the writing and the reading side. */
export function hashBytes(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i += 1) {
    hash ^= bytes[i]!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function tableSlots(words: number): number {
  let slots = 1;
  while (slots < words * 2) slots *= 2;
  return slots;
}

export function encodeWordVectors(entries: WordVectorEntry[], dimensions: number, common: Float32Array, sourceSize: number): Buffer {
  const words = entries.map((e) => Buffer.from(e.word, 'utf8'));
  const blobBytes = words.reduce((sum, w) => sum + w.length, 0);
  const slots = tableSlots(entries.length);
  const sizes = [HEADER_WORDS * 4, dimensions * 4, entries.length * 4, entries.length * 4, (entries.length + 1) * 4, slots * 4, align4(entries.length * dimensions), blobBytes];
  const out = Buffer.alloc(sizes.reduce((a, b) => a + b, 0));
  const u32 = (offset: number, count: number) => new Uint32Array(out.buffer, out.byteOffset + offset, count);
  let at = 0;
  const header = u32(at, HEADER_WORDS);
  header.set([WORD_VECTORS_MAGIC, WORD_VECTORS_FORMAT, entries.length, dimensions, slots, blobBytes, sourceSize, 0]);
  at += sizes[0]!;
  new Float32Array(out.buffer, out.byteOffset + at, dimensions).set(common);
  at += sizes[1]!;
  u32(at, entries.length).set(entries.map((e) => e.rank));
  at += sizes[2]!;
  const scales = new Float32Array(out.buffer, out.byteOffset + at, entries.length);
  at += sizes[3]!;
  const offsets = u32(at, entries.length + 1);
  at += sizes[4]!;
  const table = new Int32Array(out.buffer, out.byteOffset + at, slots);
  at += sizes[5]!;
  const vectors = new Int8Array(out.buffer, out.byteOffset + at, entries.length * dimensions);
  at += sizes[6]!;
  const blobStart = at;
  entries.forEach((entry, index) => {
    let max = 0;
    for (const v of entry.vector) max = Math.max(max, Math.abs(v));
    const scale = max / 127;
    scales[index] = scale;
    for (let d = 0; d < dimensions; d += 1) vectors[index * dimensions + d] = scale === 0 ? 0 : Math.round(entry.vector[d]! / scale);
    offsets[index] = at - blobStart;
    words[index]!.copy(out, at);
    at += words[index]!.length;
    let slot = hashBytes(words[index]!) & (slots - 1);
    while (table[slot] !== 0) slot = (slot + 1) & (slots - 1);
    table[slot] = index + 1;
  });
  offsets[entries.length] = at - blobStart;
  return out;
}

/** A word-vector table read from its binary form; lookups allocate nothing but the word's UTF-8 bytes. */
export interface WordVectors {
  readonly size: number;
  readonly dimensions: number;
  /** Words in the source vocabulary (the frequency estimate's N). */
  readonly sourceSize: number;
  readonly common: Float32Array;
  /** The word's index, or -1. */
  indexOf(word: string): number;
  rank(index: number): number;
  /** Adds `weight × vector(index)` to `into`. */
  addTo(into: Float64Array, index: number, weight: number): void;
  /** Bytes held (the file, used in place). */
  readonly bytes: number;
}

export function openWordVectors(file: Buffer): WordVectors {
  if (file.byteOffset % 4 !== 0) file = Buffer.from(file);
  const header = new Uint32Array(file.buffer, file.byteOffset, HEADER_WORDS);
  if (header[0] !== WORD_VECTORS_MAGIC || header[1] !== WORD_VECTORS_FORMAT) throw new Error('not a word-vector file of this format (rebuild it)');
  const [, , size, dimensions, slots, blobBytes, sourceSize] = Array.from(header) as number[];
  let at = file.byteOffset + HEADER_WORDS * 4;
  const take = <T>(make: (offset: number) => T, bytes: number): T => {
    const view = make(at);
    at += bytes;
    return view;
  };
  const common = take((o) => new Float32Array(file.buffer, o, dimensions!), dimensions! * 4);
  const ranks = take((o) => new Uint32Array(file.buffer, o, size!), size! * 4);
  const scales = take((o) => new Float32Array(file.buffer, o, size!), size! * 4);
  const offsets = take((o) => new Uint32Array(file.buffer, o, size! + 1), (size! + 1) * 4);
  const table = take((o) => new Int32Array(file.buffer, o, slots!), slots! * 4);
  const vectors = take((o) => new Int8Array(file.buffer, o, size! * dimensions!), align4(size! * dimensions!));
  const blob = take((o) => new Uint8Array(file.buffer, o, blobBytes!), blobBytes!);
  if (at - file.byteOffset !== file.length) throw new Error('word-vector file has the wrong length (rebuild it)');
  const mask = slots! - 1;

  function equals(index: number, bytes: Uint8Array): boolean {
    const start = offsets[index]!;
    if (offsets[index + 1]! - start !== bytes.length) return false;
    for (let i = 0; i < bytes.length; i += 1) if (blob[start + i] !== bytes[i]) return false;
    return true;
  }

  return {
    size: size!,
    dimensions: dimensions!,
    sourceSize: sourceSize!,
    common,
    bytes: file.length,
    indexOf(word) {
      const bytes = Buffer.from(word, 'utf8');
      for (let slot = hashBytes(bytes) & mask; ; slot = (slot + 1) & mask) {
        const entry = table[slot]!;
        if (entry === 0) return -1;
        if (equals(entry - 1, bytes)) return entry - 1;
      }
    },
    rank: (index) => ranks[index]!,
    addTo(into, index, weight) {
      const scaled = weight * scales[index]!;
      const base = index * dimensions!;
      for (let d = 0; d < dimensions!; d += 1) into[d]! += scaled * vectors[base + d]!;
    },
  };
}
