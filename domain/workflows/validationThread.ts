import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ToolDescriptor } from '../../lib/tools/descriptor';
import type { DefinitionInput, ValidationResult } from '../../lib/dag/validate';
import type { CredentialFindings } from './credentialFindings';
import { FairQueue } from '../../lib/fairQueue';
import { ServiceUnavailableError } from '../../lib/unavailable';

/**
 * Validation of large workflow definitions off the API's event loop. Checking every node, edge and template of the
 * largest definition the body limit admits (2,000 nodes) takes ~50 ms on an idle machine and over a second on a loaded
 * one: on the loop, every tenant's requests would wait for it. Definitions past LARGE_NODES nodes are validated by one
 * long-lived worker thread per process (validationWorker.ts: the same pure validator and credential scan, with the
 * tool descriptors of the catalogue sent along), one at a time, organizations served in turn (lib/fairQueue.ts); smaller ones stay on
 * the loop, where they take less than starting a message round trip.
 */
export const LARGE_NODES = 200;
/** Definitions waiting for the thread, over all organizations and per organization; past either, 503. */
const MAX_WAITING = 32;
const MAX_WAITING_PER_ORGANIZATION = 4;
/** A validation still running after this is a fault of ours: the thread is replaced and the request answered 503. */
const DEADLINE_MS = 20_000;

export interface ValidationRequest {
  input: DefinitionInput;
  dagPath: string;
  tools: readonly ToolDescriptor[];
}

/** The thread's answer: the validator's result and, for a valid definition, its credential findings. */
export interface CheckedDefinition {
  result: ValidationResult;
  credentials?: CredentialFindings;
}

/**
 * Both ways as JSON text: a structured clone of a 2,000-node definition costs the loop 20-35 ms each way, parsing its
 * JSON a few.
 */
export type ValidationReply = { id: number; ok: true; json: string } | { id: number; ok: false; message: string };

interface Pending {
  request: ValidationRequest;
  resolve(result: CheckedDefinition): void;
  reject(err: Error): void;
}

export interface OffLoopValidator {
  validate(organizationId: string, request: ValidationRequest): Promise<CheckedDefinition>;
  close(): Promise<void>;
}

/**
 * Expression text (fields named `expression`) past which a definition is validated in the thread: JSONata is parsed
 * at save, ~0.4 ms per kB, so at most ~15 ms of it runs on the loop.
 */
export const LARGE_EXPRESSION_CHARS = 32 * 1024;

/** The characters of every string under a key `expression` (stops counting once past `limit`). */
function expressionChars(value: unknown, limit: number, depth = 0): number {
  if (!value || typeof value !== 'object' || depth > 64) return 0;
  let total = 0;
  for (const [key, child] of Object.entries(value)) {
    total += key === 'expression' && typeof child === 'string' ? child.length : expressionChars(child, limit - total, depth + 1);
    if (total > limit) break;
  }
  return total;
}

/**
 * Whether a definition is large enough to be validated in the thread: its node or edge count, or the length of its
 * expressions (JSONata parses); anything else is small.
 */
export function isLargeDefinition(input: DefinitionInput): boolean {
  const dag = input.dag as { nodes?: unknown; edges?: unknown } | null;
  if (!dag || typeof dag !== 'object') return false;
  const count = (list: unknown): number => (Array.isArray(list) ? list.length : 0);
  return count(dag.nodes) > LARGE_NODES || count(dag.edges) > LARGE_NODES || expressionChars(dag.nodes, LARGE_EXPRESSION_CHARS) > LARGE_EXPRESSION_CHARS;
}

function startThread(): Worker {
  // Compiled JavaScript in production; TypeScript through tsx's CommonJS hook under tsx and jest (as lib/nodeChild.ts).
  const typescript = path.extname(__filename) === '.ts';
  const entry = path.join(__dirname, `validationWorker${typescript ? '.ts' : '.js'}`);
  const worker = new Worker(entry, { env: {}, execArgv: typescript ? ['--require', require.resolve('tsx/cjs')] : [] });
  worker.unref();
  return worker;
}

export function createOffLoopValidator(): OffLoopValidator {
  const queue = new FairQueue<Pending>(1);
  let thread: Worker | null = null;
  let current: { id: number; pending: Pending; key: string; timer: NodeJS.Timeout } | null = null;
  let nextId = 1;
  let closed = false;

  function finish(outcome: { result: CheckedDefinition } | { error: Error }): void {
    if (!current) return;
    const { pending, key, timer } = current;
    clearTimeout(timer);
    current = null;
    queue.release(key);
    if ('error' in outcome) pending.reject(outcome.error);
    else pending.resolve(outcome.result);
    next();
  }

  function replaceThread(why: string): void {
    const old = thread;
    thread = null;
    if (old) void old.terminate();
    finish({ error: new ServiceUnavailableError('workflow validation', `workflow validation failed (${why}); retry later`) });
  }

  function ensureThread(): Worker {
    if (thread) return thread;
    const worker = startThread();
    worker.on('message', (reply: ValidationReply) => {
      if (current?.id !== reply.id) return;
      if (reply.ok) finish({ result: JSON.parse(reply.json) as CheckedDefinition });
      else finish({ error: new ServiceUnavailableError('workflow validation', `workflow validation failed: ${reply.message}`) });
    });
    worker.on('error', (err: Error) => {
      if (thread === worker) replaceThread(err.message.slice(0, 200));
    });
    worker.on('exit', (code) => {
      if (thread === worker) replaceThread(`the validation thread ended with code ${code}`);
    });
    thread = worker;
    return worker;
  }

  function next(): void {
    if (closed || current) return;
    const taken = queue.take();
    if (!taken) {
      thread?.unref(); // idle: the process may exit
      return;
    }
    const id = nextId++;
    const timer = setTimeout(() => replaceThread(`it took longer than ${DEADLINE_MS} ms`), DEADLINE_MS);
    current = { id, pending: taken.item, key: taken.key, timer };
    const worker = ensureThread();
    worker.ref(); // busy: the process waits for the answer
    worker.postMessage({ id, json: JSON.stringify(taken.item.request) });
  }

  return {
    validate(organizationId, request) {
      if (closed) return Promise.reject(new ServiceUnavailableError('workflow validation', 'the API is shutting down'));
      if (queue.size >= MAX_WAITING || queue.waitingFor(organizationId) >= MAX_WAITING_PER_ORGANIZATION) {
        return Promise.reject(new ServiceUnavailableError('workflow validation', 'too many large workflows are being validated; retry later'));
      }
      return new Promise<CheckedDefinition>((resolve, reject) => {
        queue.push(organizationId, { request, resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      for (const pending of queue.drain()) pending.reject(new ServiceUnavailableError('workflow validation', 'the API is shutting down'));
      const old = thread;
      thread = null;
      if (current) finish({ error: new ServiceUnavailableError('workflow validation', 'the API is shutting down') });
      if (old) await old.terminate();
    },
  };
}
