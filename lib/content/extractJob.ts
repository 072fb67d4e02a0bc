import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ExpressionError, type ExpressionErrorCode } from '../expressions/errors';
import type { JsonataLimits } from '../expressions/limits';
import { PermanentContentError } from './errors';
import { runFileChild, type FileChildLimits, type FileChildReply } from './fileChild';

/**
 * On-demand extraction (POST /api/v1/content/{id}/extract) off the API's event loop: the file is streamed from
 * storage to a private temporary file (never held whole in the API's memory), and a child process of its own
 * (extractChild.ts, run by fileChild.ts with a deadline and a memory cap) parses it and answers the query. In the API
 * process, a 16 MB XML of one huge attribute held the loop for two seconds and more: every tenant's requests waited.
 * Only the answer (bounded: at most `maxChars` of text, a 1,000,000-character result, `maxMatches` matches) comes
 * back over IPC. PDFs and DOCX files are read by their own children (pdfText.ts, docx.ts).
 */
export const EXTRACT_LIMITS: FileChildLimits = { deadlineMs: 20_000, maxMemoryBytes: 1536 * 1024 * 1024 };

export type ExtractQuery =
  | { type: 'text'; maxChars: number }
  | { type: 'regex'; pattern: string; flags: string; maxMatches: number }
  | { type: 'fields'; fields: string[] }
  | { type: 'jsonata'; expression: string; limits: JsonataLimits };

/** Messages between this module and extractChild.ts. `file` holds the original (`kind: original`) or its text. */
export interface ExtractJobRequest {
  file: string;
  kind: 'original' | 'text';
  mime: string;
  /** For `kind: text`: how the text is written. */
  format?: 'text' | 'markdown';
  query: ExtractQuery;
}

export interface ExtractJobAnswer {
  result: unknown;
}

export type ExtractJobReply = FileChildReply<ExtractJobAnswer>;

/** Codes of the child's failures that are expression failures (answered as the sandbox's would be). */
const EXPRESSION_CODES = new Set<string>(['EXPRESSION_INVALID', 'EXPRESSION_FAILED', 'EXPRESSION_LIMIT', 'EXPRESSION_TIMEOUT', 'EXPRESSION_TOO_COMPLEX', 'INVALID_REGEX']);

/**
 * Streams `source` (at most `maxBytes`, else a PermanentContentError) to a temporary file, runs the query on it in an
 * extraction child, and removes the file. Throws PermanentContentError for what the file or the limits refuse,
 * ExpressionError for the query's own failures, ServiceUnavailableError when no child could run.
 */
export async function extractInChild(
  source: () => Promise<Readable>,
  maxBytes: number,
  request: Omit<ExtractJobRequest, 'file'>,
  limits: FileChildLimits = EXTRACT_LIMITS,
): Promise<unknown> {
  const dir = await mkdtemp(path.join(tmpdir(), 'loom-extract-'));
  const file = path.join(dir, randomUUID());
  try {
    let bytes = 0;
    const stream = await source();
    await pipeline(
      stream,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          bytes += chunk.length;
          if (bytes > maxBytes) throw new PermanentContentError(`file larger than the extraction limit of ${maxBytes} bytes`, 'TOO_LARGE');
          yield chunk;
        }
      },
      createWriteStream(file, { mode: 0o600 }),
    );
    return await runFileChild<ExtractJobAnswer, unknown>({
      program: 'extractChild',
      reader: 'the extraction reader',
      heapMb: 1024,
      doing: 'extracting from the file',
      request: { ...request, file } satisfies ExtractJobRequest,
      limits,
      codes: { timeout: 'EXTRACT_TIMEOUT', tooComplex: 'EXTRACT_TOO_COMPLEX', failed: 'EXTRACT_FAILED' },
      accept: (answer) => answer.result,
    });
  } catch (err) {
    if (err instanceof PermanentContentError && err.code && EXPRESSION_CODES.has(err.code)) {
      throw new ExpressionError(err.code as ExpressionErrorCode, err.message);
    }
    throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
