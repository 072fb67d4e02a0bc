import { setImmediate } from 'node:timers/promises';

/**
 * Turning large bodies into Buffers and strings without holding the event loop. On the worker, whose loop runs every
 * tenant's activities and workflow tasks, one `Buffer.concat` of a 10 MB download, its `toString` and a
 * `Buffer.from` of the text each held the loop 10–60 ms, back to back in one chain of promise callbacks: another
 * organization's 1-node run waited 100–200 ms behind one `xml_parse` node (issue 40, the fairness bench). Here the
 * copying is spread over the download's own chunks, and encoding and decoding are done a slice at a time with a turn
 * of the loop between slices.
 */
export const SLICE_BYTES = 1024 * 1024;

/** The body of a stream whose size is known: each chunk copied into place as it comes, never one large copy. */
export async function readSized(stream: AsyncIterable<unknown>, size: number, tooLarge: () => Error): Promise<Buffer> {
  const body = Buffer.allocUnsafe(size);
  let received = 0;
  for await (const item of stream) {
    const chunk = item as Buffer;
    // Leaving the loop destroys the stream.
    if (received + chunk.length > size) throw tooLarge();
    chunk.copy(body, received);
    received += chunk.length;
  }
  return received === size ? body : body.subarray(0, received);
}

/** `bytes.toString('utf8')`, a slice at a time for large bodies (the decoder keeps a character cut by a slice's end). */
export async function decodeUtf8(bytes: Buffer): Promise<string> {
  if (bytes.length <= SLICE_BYTES) return bytes.toString('utf8');
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  for (let offset = 0; offset < bytes.length; offset += SLICE_BYTES) {
    if (offset > 0) await setImmediate();
    text += decoder.decode(bytes.subarray(offset, offset + SLICE_BYTES), { stream: true });
  }
  return text + decoder.decode();
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * The end of a slice of `text` from `start`, at most `sliceChars` long, never between the halves of a surrogate pair:
 * alone, each half would be written as an escape (JSON) or U+FFFD (UTF-8).
 */
export function sliceEnd(text: string, start: number, sliceChars: number): number {
  const end = Math.min(text.length, start + sliceChars);
  return end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

/** `Buffer.from(text, 'utf8')`, a slice at a time for long texts. */
export async function encodeUtf8(text: string): Promise<Buffer> {
  // A slice of characters is at most 3 bytes each: slices of a third of SLICE_BYTES keep each write under it.
  const sliceChars = Math.floor(SLICE_BYTES / 3);
  if (text.length <= sliceChars) return Buffer.from(text, 'utf8');
  const body = Buffer.allocUnsafe(Buffer.byteLength(text, 'utf8'));
  let written = 0;
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start, sliceChars);
    if (start > 0) await setImmediate();
    written += body.write(text.slice(start, end), written, 'utf8');
    start = end;
  }
  return body;
}

/** `Buffer.concat(parts)`, copying a slice's worth at a time for large totals. */
export async function joinBuffers(parts: Buffer[]): Promise<Buffer> {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  if (total <= SLICE_BYTES) return Buffer.concat(parts, total);
  const body = Buffer.allocUnsafe(total);
  let offset = 0;
  let sinceTurn = 0;
  for (const part of parts) {
    if (sinceTurn >= SLICE_BYTES) {
      await setImmediate();
      sinceTurn = 0;
    }
    part.copy(body, offset);
    offset += part.length;
    sinceTurn += part.length;
  }
  return body;
}

/** `bytes.toString('base64')`, a slice at a time for large bodies (slices of whole 3-byte groups join cleanly). */
export async function encodeBase64(bytes: Buffer): Promise<string> {
  const slice = SLICE_BYTES - (SLICE_BYTES % 3);
  if (bytes.length <= slice) return bytes.toString('base64');
  let text = '';
  for (let offset = 0; offset < bytes.length; offset += slice) {
    if (offset > 0) await setImmediate();
    text += bytes.subarray(offset, offset + slice).toString('base64');
  }
  return text;
}
