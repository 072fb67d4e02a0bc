import jsonata from 'jsonata';
import type { AppDeps } from '../domain';
import { AppError, notFound } from '../../lib/errors';
import { extractText, structuredData, type ExtractedText } from '../../activities/content/extractors';
import { PermanentContentError } from '../../activities/content/errors';
import * as q from './queries';
import type { ExtractRequest } from './schemas';

/**
 * On-demand extraction from one version of a content: text (a PDF page range), JSONata or field paths over
 * structured data, regex matches over the text, or the recorded metadata. Runs in the API process on files up to
 * the processing size limit; JSONata is time-boxed.
 */
const JSONATA_TIME_LIMIT_MS = 2000;
const MAX_RESULT_CHARS = 1_000_000;

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
          return { ...base, result: limitSize(await evaluateJsonata(request.expression, data)) };
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
          let regex: RegExp;
          try {
            regex = new RegExp(request.pattern, `${request.flags.replace(/g/g, '')}g`);
          } catch (err) {
            throw new AppError('VALIDATION_ERROR', `invalid regex: ${(err as Error).message}`, [{ path: 'body.pattern', problem: 'invalid' }]);
          }
          const { text } = await textOf();
          const matches: { match: string; index: number; groups: (string | null)[] }[] = [];
          for (const m of text.matchAll(regex)) {
            matches.push({ match: m[0], index: m.index ?? 0, groups: m.slice(1).map((g) => g ?? null) });
            if (matches.length >= request.maxMatches) break;
          }
          return { ...base, result: { matches, truncated: matches.length >= request.maxMatches } };
        }
        default:
          throw new AppError('VALIDATION_ERROR', 'unknown extraction type');
      }
    } catch (err) {
      if (err instanceof PermanentContentError) throw new AppError('UNPROCESSABLE', err.message);
      throw err;
    }
  };
}

async function evaluateJsonata(expression: string, data: unknown): Promise<unknown> {
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(expression);
  } catch (err) {
    throw new AppError('VALIDATION_ERROR', `invalid JSONata: ${(err as Error).message}`, [{ path: 'body.expression', problem: 'does not compile' }]);
  }
  const deadline = Date.now() + JSONATA_TIME_LIMIT_MS;
  // JSONata calls this hook on every step of evaluation: a runaway expression stops at the deadline.
  (compiled.assign as unknown as (name: symbol, value: unknown) => void)(Symbol.for('jsonata.__evaluate_entry'), () => {
    if (Date.now() > deadline) throw new Error(`JSONata evaluation exceeded ${JSONATA_TIME_LIMIT_MS} ms`);
  });
  try {
    const result = (await compiled.evaluate(data)) as unknown;
    return result === undefined ? null : result;
  } catch (err) {
    throw new AppError('UNPROCESSABLE', `JSONata evaluation failed: ${(err as Error).message}`);
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
