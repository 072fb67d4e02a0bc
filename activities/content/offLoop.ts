import { ExpressionError, INLINE_PARSE_CHARS, runBulk, type BulkReply } from '../../lib/expressions/sandbox';
import { PermanentContentError } from '../../lib/content/errors';
import { DOCX, docxMarkdown, extractText, htmlToText, pdfPages, structuredData, type ExtractedText } from '../../lib/content/extractors';
import { PARSED_TYPES, structureSummary, type ContentTextJob, type StructureSummary } from '../../lib/content/parsedText';

/**
 * Content processing's parsing, off the worker's event loop. The worker's event loop runs every tenant's
 * activities and workflow tasks: a 16 MB XML upload parsed there (three times: text, metadata, conversion) held
 * another organization's 1-node run for 1–2 s. Files of a parsed type (CSV, JSON, XML, HTML) larger than
 * INLINE_PARSE_CHARS are parsed in the expression sandbox's data lane instead, in the organization's share of it,
 * under a deadline and the sandbox's heap cap, the file and the text passing as files (lib/expressions/sandbox/
 * bulkFiles.ts); smaller ones, and plain text (decoding only), stay in place.
 */
const DEADLINE_MS = 60_000;

/** A text made from a file, as the UTF-8 bytes to store and its length in characters. */
export interface ExtractedBytes {
  bytes: Buffer;
  chars: number;
  format: ExtractedText['format'];
  pages?: string[];
}

async function offLoop(job: ContentTextJob, bytes: Buffer, organizationId: string): Promise<{ reply: BulkReply; result: Buffer | null }> {
  let answer: { reply: BulkReply; result: Buffer | null };
  try {
    answer = await runBulk({ kind: 'content', ...job }, bytes, DEADLINE_MS, organizationId);
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
  const { reply, result } = await offLoop(job, bytes, organizationId);
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
  if (!PARSED_TYPES.has(mime) || !large(bytes)) return asBytes(await extractText(bytes, mime));
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
  const { reply } = await offLoop({ want: 'structure', mime }, bytes, organizationId);
  if (!('value' in reply)) throw new Error('content parsing answered without the structure');
  return reply.value as StructureSummary;
}
