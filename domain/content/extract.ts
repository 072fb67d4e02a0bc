import type { AppDeps } from '../deps';
import { AppError, notFound } from '../../lib/errors';
import { DEFAULT_JSONATA_LIMITS, ExpressionError, type JsonataLimits } from '../../lib/expressions';
import { regexMatches } from '../../lib/expressions/sandbox';
import { DOCX, extractText, type ExtractedText } from '../../lib/content/extractors';
import { PermanentContentError } from '../../lib/content/errors';
import { readObject } from '../../lib/storage';
import { extractOffLoop, type ExtractQuery } from '../../lib/content/extractJob';
import * as q from './queries';
import type { ExtractRequest } from './schemas';

/**
 * On-demand extraction from one version of a content: text (a PDF page range), JSONata or field paths over
 * structured data, regex matches over the text, or the recorded metadata. Nothing is parsed on the API's event loop:
 * text, CSV, JSON, XML and HTML files (and the text the processing step derived) are streamed to a temporary file and
 * read by an extraction thread (lib/content/extractJob.ts: byte limit before parsing, deadline, heap cap) that also
 * runs the query (JSONata with its limits, RE2 regexes); PDFs and DOCX files are read by their own children. Files
 * over the processing size limit are refused before any byte is read.
 */
/** Files hold more rows than a transform step builds: sequences up to a million items (the thread's heap cap holds). */
const EXTRACT_JSONATA_LIMITS: JsonataLimits = { ...DEFAULT_JSONATA_LIMITS, maxSequence: 1_000_000 };
/** Read by children of their own (lib/content/pdfText.ts, docx.ts) when no derived text exists. */
const OWN_READERS = new Set(['application/pdf', DOCX]);

export function createContentExtractor(deps: AppDeps) {
  const { db, storage, config } = deps;
  const maxBytes = config.content.processingMaxBytes;

  return async function extract(organizationId: string, id: string, request: ExtractRequest) {
    const row = await q.getContent(db, organizationId, id);
    if (!row) throw notFound('content');
    const version = await q.getVersion(db, organizationId, id, request.version ?? row.current_version);
    if (!version) throw notFound('version');
    const base = { contentId: id, version: version.version, type: request.type, mimeType: version.mime_type };
    if (request.type === 'metadata') return { ...base, result: version.extracted ?? {} };

    const mime = version.mime_type;
    const derivedText = version.derived?.text;
    const checkSize = (): void => {
      const size = Number(version.size_bytes);
      if (size > maxBytes) throw new AppError('UNPROCESSABLE', `file of ${size} bytes exceeds the extraction limit of ${maxBytes} bytes`);
    };
    /** The query over the derived text when there is one, else over the original file, in an extraction thread. */
    const inChild = (query: ExtractQuery, source: 'text' | 'original'): Promise<unknown> => {
      if (source === 'text' && derivedText) {
        const format = derivedText.mimeType === 'text/markdown' ? 'markdown' : 'text';
        return extractOffLoop(organizationId, () => storage.getObject(config.minio.bucket, derivedText.key), maxBytes, { kind: 'text', mime, format, query });
      }
      checkSize();
      return extractOffLoop(organizationId, () => storage.getObject(config.minio.bucket, version.object_key), maxBytes, { kind: 'original', mime, query });
    };
    /** A PDF's or DOCX's text (with a PDF's pages) without derived text: from their own reader children. */
    const readerText = async (): Promise<ExtractedText> => {
      const derived = version.derived ?? {};
      if (derived.text) {
        const text = (await readObject(storage, config.minio.bucket, derived.text.key)).toString('utf8');
        const pages = derived.pages ? (JSON.parse((await readObject(storage, config.minio.bucket, derived.pages.key)).toString('utf8')) as string[]) : undefined;
        return { text, format: derived.text.mimeType === 'text/markdown' ? 'markdown' : 'text', ...(pages ? { pages } : {}) };
      }
      checkSize();
      return extractText(await readObject(storage, config.minio.bucket, version.object_key), mime);
    };
    const ownReader = !derivedText && OWN_READERS.has(mime);
    try {
      switch (request.type) {
        case 'text': {
          if (request.pages) {
            if (mime !== 'application/pdf') throw new PermanentContentError('page ranges apply to PDFs only');
            const extracted = await readerText();
            if (!extracted.pages) throw new PermanentContentError('page ranges apply to PDFs only');
            const total = extracted.pages.length;
            const from = request.pages.from;
            const to = Math.min(request.pages.to ?? from, total);
            if (from > total || to < from) throw new PermanentContentError(`page range ${from}-${request.pages.to ?? from} outside 1-${total}`);
            const text = extracted.pages.slice(from - 1, to).join('\n\n');
            const truncated = text.length > request.maxChars;
            return { ...base, result: { text: truncated ? text.slice(0, request.maxChars) : text, truncated, format: extracted.format, pages: { from, to, total } } };
          }
          if (ownReader) {
            const { text, format } = await readerText();
            const truncated = text.length > request.maxChars;
            return { ...base, result: { text: truncated ? text.slice(0, request.maxChars) : text, truncated, format } };
          }
          return { ...base, result: await inChild({ type: 'text', maxChars: request.maxChars }, 'text') };
        }
        case 'jsonata':
          return { ...base, result: await inChild({ type: 'jsonata', expression: request.expression, limits: EXTRACT_JSONATA_LIMITS }, 'original') };
        case 'fields':
          return { ...base, result: await inChild({ type: 'fields', fields: request.fields }, 'original') };
        case 'regex': {
          if (ownReader) return { ...base, result: await regexMatches((await readerText()).text, request.pattern, request.flags, request.maxMatches) };
          return { ...base, result: await inChild({ type: 'regex', pattern: request.pattern, flags: request.flags, maxMatches: request.maxMatches }, 'text') };
        }
        default:
          throw new AppError('VALIDATION_ERROR', 'unknown extraction type');
      }
    } catch (err) {
      if (err instanceof PermanentContentError) throw new AppError('UNPROCESSABLE', err.message);
      if (err instanceof ExpressionError) throw expressionAppError(err);
      throw err;
    }
  };
}

/** Sandbox failures as API errors: the author's mistakes are 400s, what the data or the limits refuse 422s. */
function expressionAppError(err: ExpressionError): AppError {
  switch (err.code) {
    case 'EXPRESSION_INVALID':
      return new AppError('VALIDATION_ERROR', `invalid JSONata: ${err.message}`, [{ path: 'body.expression', problem: 'does not compile' }]);
    case 'INVALID_REGEX':
      return new AppError('INVALID_REGEX', err.message, [{ path: 'body.pattern', problem: 'invalid' }]);
    case 'EXPRESSION_TIMEOUT':
    case 'EXPRESSION_TOO_COMPLEX':
      return new AppError(err.code, err.message);
    default:
      return new AppError('UNPROCESSABLE', `evaluation failed: ${err.message}`);
  }
}
