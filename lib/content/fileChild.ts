import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createFairSlots } from '../fairSlots';
import { spawnNodeChild } from '../nodeChild';
import { ServiceUnavailableError } from '../unavailable';
import { PermanentContentError } from './errors';

/**
 * One file job in a child process of its own: pdf.js and mammoth parse untrusted files, so the process is killed
 * when the job passes its deadline or its memory cap, and a crash (V8 out of heap, native code) ends that process
 * only. In-process, a 290 kB PDF whose compressed page holds two million text operations needed 740 MB of heap and
 * 13 s to read, and a 60 kB DOCX whose document is 20 MB of tiny paragraphs 2.8 GB and 28 s: a little more of
 * either ran a worker out of memory, again at every retry. The children: pdfRenderChild.ts (a first page's pixels,
 * for thumbnails), pdfTextChild.ts (text and metadata) and docxChild.ts (Markdown).
 *
 * Protocol: the child loads, answers `{ ready: true }`, receives one request, answers `{ ok: true, ... }` or
 * `{ ok: false, code, message }` and exits. Failures that depend on the file are PermanentContentErrors with a
 * stable code. Failures that do not (a child that cannot start, or one killed from outside mid-job: the kernel's OOM
 * killer under memory pressure, a service manager stopping the process group) are ServiceUnavailableErrors: the API
 * answers 503 and an activity retries, instead of marking a good file failed for good.
 */
export interface FileChildLimits {
  /** Wall time of the job, from the moment the booted child receives the file. */
  deadlineMs: number;
  /** Resident memory of the child (checked every 100 ms where /proc exists, i.e. Linux). */
  maxMemoryBytes: number;
}

export type FileChildReply<Answer> = { ready: true } | ({ ok: true } & Answer) | { ok: false; code: string; message: string };

export interface FileChildJob<Answer, Result> {
  /** The child's module, next to this file, without extension. */
  program: 'pdfRenderChild' | 'pdfTextChild' | 'docxChild';
  /** The child in messages: "the PDF reader". */
  reader: string;
  /** Its V8 heap (--max-old-space-size). */
  heapMb: number;
  /** What the job does, in messages: "rendering the first page". */
  doing: string;
  request: unknown;
  limits: FileChildLimits;
  /** Codes of the child's own failures. */
  codes: { timeout: string; tooComplex: string; failed: string };
  /** The child's answer as the result (or throws a PermanentContentError for a malformed one). */
  accept(answer: Answer): Result;
  /** The organization the file belongs to: its share of the readers ('' or absent: no organization). */
  tenant?: string;
}

/**
 * Jobs at a time per process, of every kind: each takes a core and up to its memory cap; others wait (uncharged).
 * Waiting jobs are served by organization in turn (lib/fairQueue.ts), and one organization runs at most two at once:
 * the third reader is always there for another organization, whose file then waits for none of the first one's.
 */
const MAX_CONCURRENT_JOBS = 3;
const MAX_JOBS_PER_ORGANIZATION = MAX_CONCURRENT_JOBS - 1;
/** Signals that end a child from outside; ours (deadline, memory cap) are never seen here, `stop` answered first. */
const KILLED_FROM_OUTSIDE = new Set<NodeJS.Signals>(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP']);
/** Starting node (and, under tsx, the TypeScript hook) and loading pdf.js; beyond this the machine is in trouble. */
const BOOT_TIMEOUT_MS = 30_000;
const MEMORY_POLL_MS = 100;

/**
 * Jobs waiting for a slot, at most: each holds its file (up to the processing limit, 100 MB) in memory meanwhile.
 * Past it a job is refused as unavailable: the API answers 503, an activity retries later.
 */
export const MAX_WAITING_JOBS = 32;
/** Of the waiting places, one organization takes at most half: a burst of one cannot make another's files 503. */
export const MAX_WAITING_JOBS_PER_ORGANIZATION = MAX_WAITING_JOBS / 2;

const readers = createFairSlots({
  slots: MAX_CONCURRENT_JOBS,
  perKey: MAX_JOBS_PER_ORGANIZATION,
  maxWaiting: MAX_WAITING_JOBS,
  maxWaitingPerKey: MAX_WAITING_JOBS_PER_ORGANIZATION,
  what: 'file readers',
});

async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

export async function runFileChild<Answer, Result>(job: FileChildJob<Answer, Result>): Promise<Result> {
  const release = await readers.acquire(job.tenant ?? '');
  try {
    return await runInChild(job);
  } finally {
    release();
  }
}

function runInChild<Answer, Result>(job: FileChildJob<Answer, Result>): Promise<Result> {
  const { reader } = job;
  const { limits, codes } = job;
  const permanent = (code: string, message: string) => new PermanentContentError(message, code);
  const unavailable = (message: string) => new ServiceUnavailableError('file readers', message);
  return new Promise<Result>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnNodeChild(__filename, job.program, { heapMb: job.heapMb, stderr: 'pipe', serialization: 'advanced', background: true });
    } catch (err) {
      reject(unavailable(`${reader} could not start: ${(err as Error).message}`));
      return;
    }
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    let phase: 'booting' | 'working' | 'done' = 'booting';
    let stoppedFor: PermanentContentError | null = null;
    let deadlineTimer: NodeJS.Timeout | undefined;
    let memoryTimer: NodeJS.Timeout | undefined;
    const bootTimer = setTimeout(() => finish({ error: unavailable(`${reader} did not start within ${BOOT_TIMEOUT_MS} ms`) }), BOOT_TIMEOUT_MS);

    function finish(outcome: { result: Result } | { error: Error }): void {
      if (phase === 'done') return;
      phase = 'done';
      clearTimeout(bootTimer);
      clearTimeout(deadlineTimer);
      clearTimeout(memoryTimer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.result);
    }
    function stop(error: PermanentContentError): void {
      stoppedFor = error;
      finish({ error });
    }
    async function watchMemory(): Promise<void> {
      if (phase !== 'working' || child.pid === undefined) return;
      const rss = await residentBytes(child.pid);
      if (rss === null || phase !== 'working') return; // no /proc here (not Linux), or already over
      if (rss > limits.maxMemoryBytes) {
        stop(permanent(codes.tooComplex, `${job.doing} needed more than ${Math.round(limits.maxMemoryBytes / 1048576)} MiB of memory and was stopped`));
        return;
      }
      memoryTimer = setTimeout(() => void watchMemory(), MEMORY_POLL_MS);
    }

    child.on('message', (reply: FileChildReply<Answer>) => {
      if ('ready' in reply) {
        if (phase !== 'booting') return;
        phase = 'working';
        clearTimeout(bootTimer);
        deadlineTimer = setTimeout(() => stop(permanent(codes.timeout, `${job.doing} took longer than ${limits.deadlineMs} ms and was stopped`)), limits.deadlineMs);
        child.send(job.request as object, (err) => {
          if (err) finish({ error: unavailable(`the file could not be passed to ${reader}: ${err.message}`) });
        });
        void watchMemory();
        return;
      }
      if (!reply.ok) {
        finish({ error: permanent(reply.code, reply.message) });
        return;
      }
      try {
        finish({ result: job.accept(reply) });
      } catch (err) {
        finish({ error: err as Error });
      }
    });
    child.on('error', (err) => {
      finish({ error: phase === 'booting' ? unavailable(`${reader} could not start: ${err.message}`) : permanent(codes.failed, `${reader} failed: ${err.message}`) });
    });
    child.on('exit', (code, signal) => {
      if (stoppedFor) return;
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      if (phase === 'booting') {
        const detail = stderr.trim().split('\n').pop() ?? '';
        finish({ error: unavailable(`${reader} stopped while starting (${how})${detail ? `: ${detail.slice(0, 300)}` : ''}`) });
      } else if (signal && KILLED_FROM_OUTSIDE.has(signal)) {
        finish({ error: unavailable(`${reader} was stopped from outside (${how}) while ${job.doing}; retry later`) });
      } else if (signal === 'SIGABRT' || signal === 'SIGTRAP') {
        // Mid-job, V8 gave up: out of heap (the --max-old-space-size cap) or an array past its maximum length.
        finish({ error: permanent(codes.tooComplex, `${job.doing} needed more memory than ${reader} may use and was stopped`) });
      } else {
        // Mid-job, any other end: a crash in native code, caused by this file.
        finish({ error: permanent(codes.failed, `${reader} stopped unexpectedly (${how}) while ${job.doing}`) });
      }
    });
  });
}
