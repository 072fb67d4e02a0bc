/**
 * Splits text into overlapping chunks of about `size` characters, preferring paragraph, then sentence, then word
 * boundaries, so each chunk is a readable snippet and a focused embedding input. Pure: the worker runs it in place
 * for small texts and in the expression sandbox's data lane for large ones (activities/content/offLoop.ts).
 */
export interface Chunk {
  index: number;
  text: string;
}

export const MAX_CHUNKS = 10_000;

/**
 * The text's paragraphs (split at blank lines), one at a time: chunking stops at MAX_CHUNKS, so a 100 MB text is
 * read only as far as its first 10,000 chunks instead of split whole up front.
 */
function* paragraphs(text: string): Generator<string> {
  const blank = /\n\s*\n/g;
  let start = 0;
  for (let match = blank.exec(text); match; match = blank.exec(text)) {
    yield text.slice(start, match.index);
    start = match.index + match[0].length;
  }
  yield text.slice(start);
}

/** Sentences of a paragraph, one at a time; the paragraph itself when nothing in it looks like one. */
function* sentences(piece: string): Generator<string> {
  const sentence = /[^.!?\n]+[.!?]*\s*/g;
  let found = false;
  for (let match = sentence.exec(piece); match; match = sentence.exec(piece)) {
    found = true;
    yield match[0];
  }
  if (!found) yield piece;
}

function* splitLong(piece: string, size: number): Generator<string> {
  if (piece.length <= size) {
    yield piece;
    return;
  }
  let current = '';
  for (const sentence of sentences(piece)) {
    if (sentence.length > size) {
      if (current) yield current;
      current = '';
      // A sentence longer than a chunk: cut at the last space before the limit.
      let rest = sentence;
      while (rest.length > size) {
        const cut = rest.lastIndexOf(' ', size);
        const at = cut > size / 2 ? cut : size;
        yield rest.slice(0, at);
        rest = rest.slice(at);
      }
      current = rest;
    } else if (current.length + sentence.length > size) {
      yield current;
      current = sentence;
    } else current += sentence;
  }
  if (current) yield current;
}

function* pieces(text: string, size: number): Generator<string> {
  for (const paragraph of paragraphs(text)) {
    const normalized = paragraph.replace(/[ \t]+/g, ' ').trim();
    if (normalized) yield* splitLong(normalized, size);
  }
}

export function chunkText(text: string, size: number, overlap: number): Chunk[] {
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
  for (const piece of pieces(text, size)) {
    if (fresh && current.length + piece.length + 2 > size) push();
    current = current ? `${current}\n\n${piece}` : piece;
    fresh = true;
    if (chunks.length >= MAX_CHUNKS) break;
  }
  if (fresh) push();
  return chunks.slice(0, MAX_CHUNKS);
}
