import type { AppDeps } from '../deps';
import { AppError, notFound } from '../../lib/errors';
import { DEFAULT_JSONATA_LIMITS, ExpressionError, type JsonataLimits } from '../../lib/expressions';
import { evaluateJsonata, regexMatches } from '../../lib/expressions/sandbox';
import { extractText, structuredData, type ExtractedText } from '../../lib/content/extractors';
import { PermanentContentError } from '../../lib/content/errors';
import * as q from './queries';
import type { ExtractRequest } from './schemas';

/**
 * On-demand extraction from one version of a content: text (a PDF page range), JSONata or field paths over
 * structured data, regex matches over the text, or the recorded metadata. Runs in the API process on files up to
 * the processing size limit; JSONata and regexes run in the expression sandbox (a process killed at its deadline,
 * RE2 for regexes), so a hostile expression never holds the event loop.
 */
const MAX_RESULT_CHARS = 1_000_000;
/** Files hold more rows than a transform step builds: sequences up to a million items (the sandbox process's heap cap holds). */
const EXTRACT_JSONATA_LIMITS: JsonataLimits = { ...DEFAULT_JSONATA_LIMITS, maxSequence: 1_000_000 };

export function createContentExtractor(deps: AppDeps) {
  const { db, storage, config } = deps;

  async function readBytes(key: string, size: number): Promise<Buffer> {
    if (size > config.content.processingMaxBytes) {
      throw new AppError('UNPROCESSABLE', `file of ${size} bytes exceeds the extraction limit of ${config.content.processingMaxBytes} bytes`);
    }
    return readObject(key);
  }

  async function readObject(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.getObject(config.minio.bucket, key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  return async function extract(organizationId: string, id: string, request: ExtractRequest) {
    const row = await q.getContent(db, organizationId, id);
    if (!row) throw notFound('content');
    const version = await q.getVersion(db, organizationId, id, request.version ?? row.current_version);
    if (!version) throw notFound('version');
    const base = { contentId: id, version: version.version, type: request.type, mimeType: version.mime_type };
    if (request.type === 'metadata') return { ...base, result: version.extracted ?? {} };

    const original = () => readBytes(version.object_key, Number(version.size_bytes));
    /** The text the processing step extracted, when present; else extracted now from the original. */
    const textOf = async (): Promise<ExtractedText> => {
      const derived = version.derived ?? {};
      if (derived.text) {
        const text = (await readObject(derived.text.key)).toString('utf8');
        const pages = derived.pages ? (JSON.parse((await readObject(derived.pages.key)).toString('utf8')) as string[]) : undefined;
        return { text, format: derived.text.mimeType === 'text/markdown' ? 'markdown' : 'text', ...(pages ? { pages } : {}) };
      }
      return extractText(await original(), version.mime_type);
    };
    try {
      switch (request.type) {
        case 'text': {
          const extracted = await textOf();
          let text = extracted.text;
          let pages: { from: number; to: number; total: number } | undefined;
          if (request.pages) {
            if (!extracted.pages) throw new PermanentContentError('page ranges apply to PDFs only');
            const total = extracted.pages.length;
            const from = request.pages.from;
            const to = Math.min(request.pages.to ?? from, total);
            if (from > total || to < from) throw new PermanentContentError(`page range ${from}-${request.pages.to ?? from} outside 1-${total}`);
            text = extracted.pages.slice(from - 1, to).join('\n\n');
            pages = { from, to, total };
          }
          const truncated = text.length > request.maxChars;
          return { ...base, result: { text: truncated ? text.slice(0, request.maxChars) : text, truncated, format: extracted.format, ...(pages ? { pages } : {}) } };
        }
        case 'jsonata': {
          const data = structuredData(await original(), version.mime_type);
          return { ...base, result: limitSize(await evaluateJsonata(request.expression, data, {}, EXTRACT_JSONATA_LIMITS)) };
        }
        case 'fields': {
          const data = structuredData(await original(), version.mime_type);
          const result: Record<string, unknown> = {};
          for (const field of request.fields) {
            result[field] = Array.isArray(data) && version.mime_type === 'text/csv' ? data.map((r) => (r as Record<string, unknown>)[field] ?? null) : pick(data, field);
          }
          return { ...base, result: limitSize(result) };
        }
        case 'regex': {
          const { text } = await textOf();
          return { ...base, result: await regexMatches(text, request.pattern, request.flags, request.maxMatches) };
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

/** `a.b[0].c` style path; a missing step gives null. */
export function pick(data: unknown, path: string): unknown {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let value: unknown = data;
  for (const step of steps) {
    if (value === null || value === undefined) return null;
    if (step.startsWith('[')) value = Array.isArray(value) ? value[Number(step.slice(1, -1))] : undefined;
    else if (Object.prototype.hasOwnProperty.call(value, step)) value = (value as Record<string, unknown>)[step];
    else return null;
  }
  return value ?? null;
}

function limitSize(value: unknown): unknown {
  const size = JSON.stringify(value ?? null).length;
  if (size > MAX_RESULT_CHARS) throw new AppError('UNPROCESSABLE', `result of ${size} characters exceeds ${MAX_RESULT_CHARS}; narrow the query`);
  return value;
}
