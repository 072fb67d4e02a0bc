/**
 * Splits text into overlapping chunks of about `size` characters, preferring paragraph, then sentence, then word
 * boundaries, so each chunk is a readable snippet and a focused embedding input.
 */
export interface Chunk {
  index: number;
  text: string;
}

export const MAX_CHUNKS = 10_000;

function splitLong(piece: string, size: number): string[] {
  if (piece.length <= size) return [piece];
  const sentences = piece.match(/[^.!?\n]+[.!?]*\s*/g) ?? [piece];
  const out: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (sentence.length > size) {
      if (current) out.push(current);
      current = '';
      // A sentence longer than a chunk: cut at the last space before the limit.
      let rest = sentence;
      while (rest.length > size) {
        const cut = rest.lastIndexOf(' ', size);
        const at = cut > size / 2 ? cut : size;
        out.push(rest.slice(0, at));
        rest = rest.slice(at);
      }
      current = rest;
    } else if (current.length + sentence.length > size) {
      out.push(current);
      current = sentence;
    } else current += sentence;
  }
  if (current) out.push(current);
  return out;
}

export function chunkText(text: string, size: number, overlap: number): Chunk[] {
  const pieces = text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean)
    .flatMap((p) => splitLong(p, size));
  const chunks: Chunk[] = [];
  let current = '';
  // True once `current` holds text beyond the overlap carried from the previous chunk.
  let fresh = false;
  const push = (): void => {
    const trimmed = current.trim();
    if (trimmed) chunks.push({ index: chunks.length, text: trimmed });
    // Carry the tail of this chunk into the next one (from a word boundary) so no sentence loses its context.
    const tail = overlap > 0 ? trimmed.slice(-overlap) : '';
    const space = tail.indexOf(' ');
    current = space >= 0 && trimmed.length > overlap ? tail.slice(space + 1) : tail;
    fresh = false;
  };
  for (const piece of pieces) {
    if (fresh && current.length + piece.length + 2 > size) push();
    current = current ? `${current}\n\n${piece}` : piece;
    fresh = true;
    if (chunks.length >= MAX_CHUNKS) break;
  }
  if (fresh) push();
  return chunks.slice(0, MAX_CHUNKS);
}
