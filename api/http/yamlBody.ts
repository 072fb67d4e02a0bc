import { Worker } from 'node:worker_threads';
import { parse as parseYaml } from 'yaml';
import { AppError } from '../../lib/errors';

/**
 * YAML request bodies are parsed in a worker thread with a deadline, never on the API's event loop. The \`yaml\`
 * package is slow on large documents, and superlinear on some: on this machine a 1 MB body of 80,000 short keys took
 * 209 s (its duplicate-key check), 150,000 list items 6-7 s, a 1 MB quoted string 0.4-1 s, all of it holding every
 * tenant's requests. A thread that passes the deadline is terminated and the request answered 400; at most
 * MAX_RUNNING parse at once and MAX_WAITING wait (then 503), so YAML bodies cannot take all the cores either.
 * Bodies up to INLINE_CHARS are parsed in place: a few milliseconds at worst, less than starting a thread.
 */
export const YAML_PARSE_DEADLINE_MS = 5_000;
const INLINE_CHARS = 16 * 1024;
const MAX_RUNNING = 2;
const MAX_WAITING = 16;
/** Aliases can make a document larger than its text: past this many characters of JSON, refused. */
const MAX_EXPANSION = 8;

// Plain JavaScript evaluated in the thread: the same under tsx, jest and the compiled build. Anchors and tags give
// nothing but plain data (the JSON round trip), as before.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { parse } = require(${JSON.stringify(require.resolve('yaml'))});
let reply;
try {
  const value = parse(workerData.text, { maxAliasCount: 100 });
  const json = JSON.stringify(value);
  reply = json !== undefined && json.length > workerData.maxChars ? { ok: false, tooLarge: true } : { ok: true, json };
} catch (err) {
  reply = { ok: false, message: String((err && err.message) || err) };
}
parentPort.postMessage(reply);
`;

type Reply = { ok: true; json: string | undefined } | { ok: false; tooLarge?: boolean; message?: string };

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) throw new AppError('SERVICE_UNAVAILABLE', 'too many YAML bodies are being parsed; retry shortly, or send JSON');
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/** The YAML text as JSON text (undefined for an empty document), parsed off the event loop. */
export async function yamlToJson(text: string): Promise<string | undefined> {
  if (text.length <= INLINE_CHARS) {
    try {
      return JSON.stringify(parseYaml(text, { maxAliasCount: 100 }));
    } catch (err) {
      throw new AppError('VALIDATION_ERROR', `malformed YAML body: ${(err as Error).message.slice(0, 500)}`);
    }
  }
  const release = await slot();
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const worker = new Worker(SOURCE, {
        eval: true,
        workerData: { text, maxChars: Math.max(1024, text.length * MAX_EXPANSION) },
        resourceLimits: { maxOldGenerationSizeMb: 256 },
      });
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new AppError('VALIDATION_ERROR', `YAML body took longer than ${YAML_PARSE_DEADLINE_MS} ms to parse; send it as JSON`));
      }, YAML_PARSE_DEADLINE_MS);
      worker.once('message', (message: Reply) => {
        clearTimeout(timer);
        resolve(message);
        void worker.terminate();
      });
      worker.once('error', (err) => {
        clearTimeout(timer);
        // Past the thread's heap cap (ERR_WORKER_OUT_OF_MEMORY) or a failure to start: the document is to blame.
        reject(new AppError('VALIDATION_ERROR', `YAML body could not be parsed: ${err.message.slice(0, 200)}`));
      });
    });
    if (reply.ok) return reply.json;
    if (reply.tooLarge) throw new AppError('PAYLOAD_TOO_LARGE', `YAML body expands to more than ${MAX_EXPANSION} times its size`);
    throw new AppError('VALIDATION_ERROR', `malformed YAML body: ${(reply.message ?? '').slice(0, 500)}`);
  } finally {
    release();
  }
}
