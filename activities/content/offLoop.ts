import { ExpressionError, INLINE_PARSE_CHARS, runInDataLane } from '../../lib/expressions/sandbox';
import { PermanentContentError } from '../../lib/content/errors';
import { DOCX, docxMarkdown, extractText, htmlToText, pdfPages, structuredData, type ExtractedText } from '../../lib/content/extractors';
import { PARSED_TYPES, structureSummary, type ContentTextOutcome, type ContentTextRequest, type StructureSummary } from '../../lib/content/parsedText';

/**
 * Content processing's parsing, off the worker's event loop. The worker's event loop runs every tenant's
 * activities and workflow tasks: a 16 MB XML upload parsed there (three times: text, metadata, conversion) held
 * another organization's 1-node run for 1–2 s. Files of a parsed type (CSV, JSON, XML, HTML) larger than
 * INLINE_PARSE_CHARS are parsed in the expression sandbox's data lane instead (lib/content/parsedText.ts), in the
 * organization's share of it, under a deadline and the sandbox's heap cap; smaller ones, and plain text (decoding
 * only), stay in place.
 */
const DEADLINE_MS = 60_000;

async function offLoop(request: ContentTextRequest, organizationId: string): Promise<unknown> {
  let outcome: ContentTextOutcome;
  try {
    outcome = (await runInDataLane({ op: 'content', request }, DEADLINE_MS, organizationId)) as ContentTextOutcome;
  } catch (err) {
    if (err instanceof ExpressionError && err.code === 'EXPRESSION_TIMEOUT') {
      throw new PermanentContentError(`parsing the file took longer than ${DEADLINE_MS / 1000} s and was stopped`, 'EXTRACT_TIMEOUT');
    }
    if (err instanceof ExpressionError && (err.code === 'EXPRESSION_TOO_COMPLEX' || err.code === 'EXPRESSION_LIMIT')) {
      throw new PermanentContentError('parsing the file needed more memory than allowed and was stopped', 'EXTRACT_TOO_COMPLEX');
    }
    throw err; // the sandbox itself failed: retried like any transient failure
  }
  if ('failed' in outcome) throw new PermanentContentError(outcome.failed.message, outcome.failed.code);
  return outcome.value;
}

const large = (bytes: Buffer): boolean => bytes.length > INLINE_PARSE_CHARS;

/**
 * extractText (lib/content/extractors.ts), off the loop for large parsed types. PDFs and DOCX files go to their readers
 * (children of their own) as extractText sends them, with the organization's share of those readers.
 */
export async function extractTextOffLoop(bytes: Buffer, mime: string, organizationId: string): Promise<ExtractedText> {
  if (mime === 'application/pdf') {
    const pages = await pdfPages(bytes, {}, organizationId);
    return { text: pages.join('\n\n'), format: 'text', pages };
  }
  if (mime === DOCX) return { text: await docxMarkdown(bytes, {}, organizationId), format: 'markdown' };
  if (!PARSED_TYPES.has(mime) || !large(bytes)) return extractText(bytes, mime);
  return (await offLoop({ want: 'text', mime, text: bytes.toString('utf8') }, organizationId)) as ExtractedText;
}

/** htmlToText, off the loop for large pages. */
export async function htmlToTextOffLoop(bytes: Buffer, organizationId: string): Promise<string> {
  if (!large(bytes)) return htmlToText(bytes.toString('utf8'));
  return (await offLoop({ want: 'html', mime: 'text/html', text: bytes.toString('utf8') }, organizationId)) as string;
}

/** The shape of structured data (JSON, CSV, XML), off the loop for large files. */
export async function structureOffLoop(bytes: Buffer, mime: string, organizationId: string): Promise<StructureSummary> {
  if (!large(bytes)) return structureSummary(structuredData(bytes, mime), mime);
  return (await offLoop({ want: 'structure', mime, text: bytes.toString('utf8') }, organizationId)) as StructureSummary;
}
