import { ExpressionError, INLINE_PARSE_CHARS, runBulk, type BulkJob, type BulkReply } from '../../lib/expressions/sandbox';
import { PermanentContentError } from '../../lib/content/errors';
import { chunkText, type Chunk } from '../../lib/content/chunking';
import { DOCX, docxMarkdown, extractText, htmlToText, pdfPages, structuredData, textStats, type ExtractedText } from '../../lib/content/extractors';
import { structureSummary, type ContentTextJob, type StructureSummary } from '../../lib/content/parsedText';
import { EmbeddingProviderError, type EmbeddingProvider } from '../../lib/embeddings';
import { flatten, fromFlatBytes, type FlatVectors } from '../../lib/embeddings/flatVectors';

/**
 * Content processing's work on a file's text, off the worker's event loop. The worker's event loop runs every
 * tenant's activities and workflow tasks: a 16 MB XML upload parsed there (three times: text, metadata, conversion)
 * held another organization's 1-node run for 1–2 s, and a 16 MB text file's chunking ~400 ms, its word count
 * ~100 ms (a 100 MB file: seconds). Inputs larger than INLINE_PARSE_CHARS bytes are worked on in the expression
 * sandbox's data lane instead, in the organization's share of it, under a deadline and the sandbox's heap cap, the
 * input and the result passing as files (lib/expressions/sandbox/bulkFiles.ts); smaller ones stay in place.
 */
const DEADLINE_MS = 60_000;

/** A text made from a file, as the UTF-8 bytes to store and its length in characters. */
export interface ExtractedBytes {
  bytes: Buffer;
  chars: number;
  format: ExtractedText['format'];
  pages?: string[];
}

async function offLoop(job: BulkJob, bytes: Buffer, organizationId: string): Promise<{ reply: BulkReply; result: Buffer | null }> {
  let answer: { reply: BulkReply; result: Buffer | null };
  try {
    answer = await runBulk(job, bytes, DEADLINE_MS, organizationId);
  } catch (err) {
    if (err instanceof ExpressionError && err.code === 'EXPRESSION_TIMEOUT') {
      throw new PermanentContentError(`parsing the file took longer than ${DEADLINE_MS / 1000} s and was stopped`, 'EXTRACT_TIMEOUT');
    }
    if (err instanceof ExpressionError && (err.code === 'EXPRESSION_TOO_COMPLEX' || err.code === 'EXPRESSION_LIMIT')) {
      throw new PermanentContentError('parsing the file needed more memory than allowed and was stopped', 'EXTRACT_TOO_COMPLEX');
    }
    throw err; // the sandbox itself failed: retried like any transient failure
  }
  if ('failed' in answer.reply) throw new PermanentContentError(answer.reply.failed.message, answer.reply.failed.code);
  return answer;
}

/** A text the sandbox wrote: its bytes as they are, never turned into a string on the loop. */
async function textOffLoop(job: ContentTextJob, bytes: Buffer, organizationId: string): Promise<ExtractedBytes> {
  const { reply, result } = await offLoop({ kind: 'content', ...job }, bytes, organizationId);
  if (!('written' in reply) || !('chars' in reply.written) || !result) throw new Error('content parsing answered without its text');
  return { bytes: result, chars: reply.written.chars, format: reply.written.format };
}

const large = (bytes: Buffer): boolean => bytes.length > INLINE_PARSE_CHARS;

const asBytes = (extracted: ExtractedText): ExtractedBytes => ({
  bytes: Buffer.from(extracted.text, 'utf8'),
  chars: extracted.text.length,
  format: extracted.format,
  ...(extracted.pages ? { pages: extracted.pages } : {}),
});

/**
 * extractText (lib/content/extractors.ts) as bytes to store, off the loop for large parsed types. PDFs and DOCX files
 * go to their readers (children of their own) as extractText sends them, with the organization's share of those
 * readers.
 */
export async function extractTextOffLoop(bytes: Buffer, mime: string, organizationId: string): Promise<ExtractedBytes> {
  if (mime === 'application/pdf') {
    const pages = await pdfPages(bytes, {}, organizationId);
    return asBytes({ text: pages.join('\n\n'), format: 'text', pages });
  }
  if (mime === DOCX) return asBytes({ text: await docxMarkdown(bytes, {}, organizationId), format: 'markdown' });
  if (!large(bytes)) return asBytes(await extractText(bytes, mime));
  return textOffLoop({ want: 'text', mime }, bytes, organizationId);
}

/** htmlToText as bytes to store, off the loop for large pages. */
export async function htmlToTextOffLoop(bytes: Buffer, organizationId: string): Promise<ExtractedBytes> {
  if (!large(bytes)) return asBytes({ text: htmlToText(bytes.toString('utf8')), format: 'text' });
  return textOffLoop({ want: 'html', mime: 'text/html' }, bytes, organizationId);
}

/** The shape of structured data (JSON, CSV, XML), off the loop for large files. */
export async function structureOffLoop(bytes: Buffer, mime: string, organizationId: string): Promise<StructureSummary> {
  if (!large(bytes)) return structureSummary(structuredData(bytes, mime), mime);
  const { reply } = await offLoop({ kind: 'content', want: 'structure', mime }, bytes, organizationId);
  if (!('value' in reply)) throw new Error('content parsing answered without the structure');
  return reply.value as StructureSummary;
}

export type TextStats = ReturnType<typeof textStats>;

/** Characters, words and lines of the text extracted from a file of type `mime` (text types, HTML, markdown). */
export async function textStatsOffLoop(bytes: Buffer, mime: string, organizationId: string): Promise<TextStats> {
  if (!large(bytes)) return textStats((await extractText(bytes, mime)).text);
  const { reply } = await offLoop({ kind: 'content', want: 'stats', mime }, bytes, organizationId);
  if (!('value' in reply)) throw new Error('content parsing answered without the text statistics');
  return reply.value as TextStats;
}

/** The chunks of an extracted text (UTF-8 bytes) as the JSON to store, and how many there are. */
export async function chunksOffLoop(text: Buffer, size: number, overlap: number, organizationId: string): Promise<{ bytes: Buffer; count: number }> {
  if (!large(text)) {
    const chunks: Chunk[] = chunkText(text.toString('utf8'), size, overlap);
    return { bytes: Buffer.from(JSON.stringify(chunks), 'utf8'), count: chunks.length };
  }
  const { reply, result } = await offLoop({ kind: 'chunks', size, overlap }, text, organizationId);
  if (!('written' in reply) || !('chunks' in reply.written) || !result) throw new Error('chunking answered without its chunks');
  return { bytes: result, count: reply.written.chunks };
}

/** Texts per request to a hosted provider. */
const EMBED_BATCH = 64;
/**
 * Chunks (as JSON) a built-in embedder embeds in place: ~8 chunks, ~10 ms with the lexical one. Past this the data
 * lane does it (a document of 10,000 chunks is seconds of CPU).
 */
const INLINE_EMBED_BYTES = 8 * 1024;

/**
 * The vectors of a document's chunks (`chunks`, parsed from `chunksJson`), in order. A built-in embedder's work on
 * a large document (10,000 chunks: seconds of CPU) runs in the data lane, its vectors coming back as raw floats; a
 * hosted provider is asked over the network, 64 texts at a time. A provider's failure (network, 5xx) is thrown as
 * a plain Error: worth retrying, its message shown at /status.
 */
export async function embedChunksOffLoop(chunksJson: Buffer, chunks: Chunk[], provider: EmbeddingProvider, organizationId: string): Promise<FlatVectors> {
  const inProcess = provider.kind === 'semantic' || provider.kind === 'lexical';
  if (inProcess && chunksJson.length > INLINE_EMBED_BYTES) {
    const { reply, result } = await offLoop({ kind: 'embed', model: provider.model }, chunksJson, organizationId);
    if (!('written' in reply) || !('vectors' in reply.written) || !result) throw new Error('embedding answered without its vectors');
    const flat = fromFlatBytes(result, provider.dimensions);
    if (flat.count !== chunks.length) throw new Error(`embedding answered ${flat.count} vectors for ${chunks.length} chunks`);
    return flat;
  }
  const embeddings: number[][] = [];
  try {
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      embeddings.push(...(await provider.embed(chunks.slice(i, i + EMBED_BATCH).map((c) => c.text), 'document')));
    }
  } catch (err) {
    if (err instanceof EmbeddingProviderError) throw new Error(err.message);
    throw err;
  }
  return flatten(embeddings, provider.dimensions);
}
