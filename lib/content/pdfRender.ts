import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PermanentContentError } from './errors';

/**
 * Renders the first page of a PDF to RGBA pixels (for thumbnails) with pdf.js (`pdfjs-dist`, legacy build) on a
 * `@napi-rs/canvas` canvas, in a child process of its own (pdfRenderChild.ts) so that a hostile file can always be
 * abandoned: the process is killed when the render passes its deadline or its memory cap, and a crash of the native
 * canvas code ends that process only. Fixed limits refuse absurd documents before rendering (page count, page
 * size, embedded image pixels); the canvas itself is never larger than the requested box.
 *
 * Failures that depend on the file are PermanentContentErrors with a stable code (PDF_ENCRYPTED, PDF_INVALID,
 * PDF_TOO_MANY_PAGES, PDF_PAGE_SIZE, PDF_RENDER_TIMEOUT, PDF_TOO_COMPLEX, PDF_RENDER_FAILED); a renderer that cannot
 * start is a plain Error (worth a retry).
 */
export interface PdfRenderLimits {
  /** Wall time of one render, from the moment the booted renderer receives the file. */
  deadlineMs: number;
  /** Resident memory of the renderer process (checked every 100 ms where /proc exists, i.e. Linux). */
  maxMemoryBytes: number;
  /** Documents claiming more pages are refused (a real document stays far below). */
  maxPages: number;
  /** Longest page edge at 72 dpi, in points; the PDF specification's own maximum is 14,400. */
  maxPageEdge: number;
  /** Embedded images above this many pixels are left out of the render (pdf.js `maxImageSize`). */
  maxImagePixels: number;
}

export const PDF_RENDER_LIMITS: PdfRenderLimits = {
  deadlineMs: 30_000,
  maxMemoryBytes: 768 * 1024 * 1024,
  maxPages: 50_000,
  maxPageEdge: 14_400,
  maxImagePixels: 40_000_000,
};

/** Renders at a time per process: each takes a core and up to `maxMemoryBytes`; others wait (uncharged). */
const MAX_CONCURRENT_RENDERS = 2;
/** Starting node (and, under tsx, the TypeScript hook) and loading pdf.js; beyond this the machine is in trouble. */
const BOOT_TIMEOUT_MS = 30_000;
const HEAP_MB = 512;
const MEMORY_POLL_MS = 100;

export type PdfRenderErrorCode =
  | 'PDF_ENCRYPTED'
  | 'PDF_INVALID'
  | 'PDF_TOO_MANY_PAGES'
  | 'PDF_PAGE_SIZE'
  | 'PDF_RENDER_TIMEOUT'
  | 'PDF_TOO_COMPLEX'
  | 'PDF_RENDER_FAILED';

export interface RenderedPage {
  /** Canvas size in pixels: the page fitted inside the requested box. */
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA, not premultiplied; the page background is opaque white. */
  rgba: Buffer;
  /** Page count of the document and size of the first page in points. */
  pages: number;
  pageWidth: number;
  pageHeight: number;
}

/** Messages between this module and pdfRenderChild.ts (structured clone over IPC). */
export interface PdfRenderRequest {
  bytes: Uint8Array;
  box: number;
  limits: Pick<PdfRenderLimits, 'maxPages' | 'maxPageEdge' | 'maxImagePixels'>;
}

export type PdfRenderReply =
  | { ready: true }
  | { ok: true; width: number; height: number; rgba: Uint8Array; pages: number; pageWidth: number; pageHeight: number }
  | { ok: false; code: PdfRenderErrorCode; message: string };

let running = 0;
const waiting: (() => void)[] = [];

async function acquire(): Promise<() => void> {
  if (running >= MAX_CONCURRENT_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running -= 1;
    waiting.shift()?.();
  };
}

function childProgram(): { entry: string; execArgv: string[] } {
  // Compiled JavaScript in production; TypeScript through tsx's CommonJS hook under tsx and jest (as the
  // expression sandbox chooses its thread's code).
  const typescript = path.extname(__filename) === '.ts';
  return {
    entry: path.join(__dirname, `pdfRenderChild${typescript ? '.ts' : '.js'}`),
    execArgv: [...(typescript ? ['--require', require.resolve('tsx/cjs')] : []), `--max-old-space-size=${HEAP_MB}`],
  };
}

async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

function permanent(code: PdfRenderErrorCode, message: string): PermanentContentError {
  return new PermanentContentError(message, code);
}

/** The first page fitted inside a `box` × `box` pixel square. */
export async function renderPdfFirstPage(bytes: Buffer, box: number, overrides: Partial<PdfRenderLimits> = {}): Promise<RenderedPage> {
  const limits = { ...PDF_RENDER_LIMITS, ...overrides };
  const release = await acquire();
  try {
    return await renderInChild(bytes, box, limits);
  } finally {
    release();
  }
}

function renderInChild(bytes: Buffer, box: number, limits: PdfRenderLimits): Promise<RenderedPage> {
  const { entry, execArgv } = childProgram();
  return new Promise<RenderedPage>((resolve, reject) => {
    let child: ChildProcess;
    try {
      // An empty environment: the renderer parses untrusted files and needs none of the process's settings.
      child = fork(entry, [], { execArgv, env: {}, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    } catch (err) {
      reject(new Error(`the PDF renderer could not start: ${(err as Error).message}`));
      return;
    }
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    let phase: 'booting' | 'rendering' | 'done' = 'booting';
    let stoppedFor: PermanentContentError | null = null;
    let deadlineTimer: NodeJS.Timeout | undefined;
    let memoryTimer: NodeJS.Timeout | undefined;
    const bootTimer = setTimeout(() => finish({ error: new Error(`the PDF renderer did not start within ${BOOT_TIMEOUT_MS} ms`) }), BOOT_TIMEOUT_MS);

    function finish(outcome: { page: RenderedPage } | { error: Error }): void {
      if (phase === 'done') return;
      phase = 'done';
      clearTimeout(bootTimer);
      clearTimeout(deadlineTimer);
      clearTimeout(memoryTimer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.page);
    }
    function stop(error: PermanentContentError): void {
      stoppedFor = error;
      finish({ error });
    }
    async function watchMemory(): Promise<void> {
      if (phase !== 'rendering' || child.pid === undefined) return;
      const rss = await residentBytes(child.pid);
      if (rss === null || phase !== 'rendering') return; // no /proc here (not Linux), or already over
      if (rss > limits.maxMemoryBytes) {
        stop(permanent('PDF_TOO_COMPLEX', `rendering the first page needed more than ${Math.round(limits.maxMemoryBytes / 1048576)} MiB of memory and was stopped`));
        return;
      }
      memoryTimer = setTimeout(() => void watchMemory(), MEMORY_POLL_MS);
    }

    child.on('message', (reply: PdfRenderReply) => {
      if ('ready' in reply) {
        if (phase !== 'booting') return;
        phase = 'rendering';
        clearTimeout(bootTimer);
        deadlineTimer = setTimeout(
          () => stop(permanent('PDF_RENDER_TIMEOUT', `rendering the first page took longer than ${limits.deadlineMs} ms and was stopped`)),
          limits.deadlineMs,
        );
        const request: PdfRenderRequest = {
          bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          box,
          limits: { maxPages: limits.maxPages, maxPageEdge: limits.maxPageEdge, maxImagePixels: limits.maxImagePixels },
        };
        child.send(request, (err) => {
          if (err) finish({ error: new Error(`the PDF could not be passed to the renderer: ${err.message}`) });
        });
        void watchMemory();
        return;
      }
      if (reply.ok) {
        const rgba = Buffer.from(reply.rgba.buffer, reply.rgba.byteOffset, reply.rgba.byteLength);
        if (rgba.length !== reply.width * reply.height * 4) {
          finish({ error: permanent('PDF_RENDER_FAILED', 'the renderer answered with a malformed image') });
          return;
        }
        const { width, height, pages, pageWidth, pageHeight } = reply;
        finish({ page: { width, height, rgba, pages, pageWidth, pageHeight } });
      } else {
        finish({ error: permanent(reply.code, reply.message) });
      }
    });
    child.on('error', (err) => {
      finish({ error: phase === 'booting' ? new Error(`the PDF renderer could not start: ${err.message}`) : permanent('PDF_RENDER_FAILED', `the PDF renderer failed: ${err.message}`) });
    });
    child.on('exit', (code, signal) => {
      if (stoppedFor) return;
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      if (phase === 'booting') {
        const detail = stderr.trim().split('\n').pop() ?? '';
        finish({ error: new Error(`the PDF renderer stopped while starting (${how})${detail ? `: ${detail.slice(0, 300)}` : ''}`) });
      } else {
        // Mid-render: V8 out of heap (the --max-old-space-size cap) or a crash in native code, caused by this file.
        finish({ error: permanent('PDF_RENDER_FAILED', `the PDF renderer stopped unexpectedly (${how}) while rendering the first page`) });
      }
    });
  });
}
