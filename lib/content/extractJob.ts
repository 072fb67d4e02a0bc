import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { ExpressionError, type ExpressionErrorCode } from '../expressions/errors';
import type { JsonataLimits } from '../expressions/limits';
import { runInDataLane } from '../expressions/sandbox';
import { createFairSlots } from '../fairSlots';
import { PermanentContentError } from './errors';

/**
 * On-demand extraction (POST /api/v1/content/{id}/extract) off the API's event loop: the file is streamed from
 * storage to a private temporary file (never held whole in the API's memory), and a worker thread of its own
 * (extractWorker.ts) parses it and answers the query, terminated at its deadline, its heap capped. In the API's
 * thread, a 16 MB XML of one huge attribute held the loop for two seconds and more: every tenant's requests waited.
 * A thread, not a child process: spawning one forks the API's whole process synchronously, 70-400 ms of blocked loop
 * on a busy machine. Only the answer (bounded: at most `maxChars` of text, a 1,000,000-character result, `maxMatches`
 * matches) comes back. PDFs and DOCX files are read by their own children (pdfText.ts, docx.ts). JSONata queries
 * run in the expression sandbox's data lane instead (a child process that reads the file itself): an expression can
 * make V8 abort (an array past its maximum length), which ends the whole process a thread belongs to.
 */
export const EXTRACT_LIMITS = { deadlineMs: 30_000, heapMb: 768 };
/**
 * Threads at a time per process, each a core and up to its heap, one of them at most per organization; 32 more wait
 * (16 of one organization), then 503 (lib/fairSlots.ts).
 */
const threads = createFairSlots({ slots: 2, perKey: 1, maxWaiting: 32, maxWaitingPerKey: 16, what: 'file readers' });

export type ExtractQuery =
  | { type: 'text'; maxChars: number }
  | { type: 'regex'; pattern: string; flags: string; maxMatches: number }
  | { type: 'fields'; fields: string[] }
  | { type: 'jsonata'; expression: string; limits: JsonataLimits };

/** Messages between this module and extractWorker.ts. `file` holds the original (`kind: original`) or its text. */
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

export type ExtractJobReply = ({ ok: true } & ExtractJobAnswer) | { ok: false; code: string; message: string };

/** Codes of the child's failures that are expression failures (answered as the sandbox's would be). */
const EXPRESSION_CODES = new Set<string>(['EXPRESSION_INVALID', 'EXPRESSION_FAILED', 'EXPRESSION_LIMIT', 'EXPRESSION_TIMEOUT', 'EXPRESSION_TOO_COMPLEX', 'INVALID_REGEX']);

/** One extraction in a thread: its answer, or a PermanentContentError (its code, or EXTRACT_TIMEOUT / _TOO_COMPLEX / _FAILED). */
function inThread(request: ExtractJobRequest, limits: typeof EXTRACT_LIMITS): Promise<unknown> {
  // Compiled JavaScript in production; TypeScript through tsx's CommonJS hook under tsx and jest (as lib/nodeChild.ts).
  const typescript = path.extname(__filename) === '.ts';
  const entry = path.join(__dirname, `extractWorker${typescript ? '.ts' : '.js'}`);
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, {
      workerData: request,
      env: {},
      execArgv: typescript ? ['--require', require.resolve('tsx/cjs')] : [],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => settle(() => reject(new PermanentContentError(`extracting from the file took longer than ${limits.deadlineMs} ms and was stopped`, 'EXTRACT_TIMEOUT'))),
      limits.deadlineMs,
    );
    worker.once('message', (reply: ExtractJobReply) =>
      settle(() => (reply.ok ? resolve(reply.result) : reject(new PermanentContentError(reply.message, reply.code)))),
    );
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new PermanentContentError(`extracting from the file needed more than ${limits.heapMb} MB of memory and was stopped`, 'EXTRACT_TOO_COMPLEX')
            : new PermanentContentError(`extracting from the file failed: ${err.message.slice(0, 300)}`, 'EXTRACT_FAILED'),
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new PermanentContentError(`the extraction thread ended (code ${code}) without an answer`, 'EXTRACT_FAILED'))));
  });
}

/** One JSONata extraction in a sandbox process: its answer, or a PermanentContentError with its code (a stopped or
 * crashed process is the sandbox's own ExpressionError). */
async function inSandbox(request: ExtractJobRequest, bytes: number, limits: typeof EXTRACT_LIMITS): Promise<unknown> {
  // The expression's own deadline (and the sandbox's grace past it, as for every JSONata evaluation), plus a second
  // and a second per 4 MB to read and parse the file: a runaway step is stopped long before it fills the process's
  // heap, as it is in a run's transform.
  const parseMs = 1000 + Math.ceil(bytes / (4 * 1024 * 1024)) * 1000;
  const timeoutMs = request.query.type === 'jsonata' ? request.query.limits.timeoutMs : 0;
  const deadlineMs = Math.min(limits.deadlineMs, timeoutMs + 250 + parseMs);
  const reply = (await runInDataLane({ op: 'extract', request }, deadlineMs)) as ExtractJobReply;
  if (!reply.ok) throw new PermanentContentError(reply.message, reply.code);
  return reply.result;
}

/**
 * Streams `source` (at most `maxBytes`, else a PermanentContentError) to a temporary file, runs the query on it in an
 * extraction thread (the organization's turn at one), and removes the file. Throws PermanentContentError for what the file or the limits refuse,
 * ExpressionError for the query's own failures, ServiceUnavailableError when too many wait.
 */
export async function extractOffLoop(
  organizationId: string,
  source: () => Promise<Readable>,
  maxBytes: number,
  request: Omit<ExtractJobRequest, 'file'>,
  limits: typeof EXTRACT_LIMITS = EXTRACT_LIMITS,
): Promise<unknown> {
  const release = await threads.acquire(organizationId);
  const dir = await mkdtemp(path.join(tmpdir(), 'loom-extract-')).catch((err: unknown) => {
    release();
    throw err;
  });
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
    return await (request.query.type === 'jsonata' ? inSandbox({ ...request, file }, bytes, limits) : inThread({ ...request, file }, limits));
  } catch (err) {
    if (err instanceof PermanentContentError && err.code && EXPRESSION_CODES.has(err.code)) {
      throw new ExpressionError(err.code as ExpressionErrorCode, err.message);
    }
    throw err;
  } finally {
    release();
    await rm(dir, { recursive: true, force: true });
  }
}
