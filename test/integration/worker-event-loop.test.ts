import { randomUUID } from 'node:crypto';
import { loadStepContext, type StepInput } from '../../activities/content/context';
import { STEP_RUNNERS } from '../../activities/content/steps';
import { MAX_CHUNKS } from '../../lib/content/chunking';
import { closeSandbox } from '../../lib/expressions/sandbox';
import type { ProcessingStep } from '../../lib/contentSteps';
import { createVectorStore, type VectorStore } from '../../lib/vectors';
import { uploadContent } from '../helpers/content';
import { loopDelayDuring } from '../helpers/eventLoop';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';

/**
 * The worker's event-loop guard for content processing (issue 40: no tenant stalls the shared worker). The worker's
 * event loop runs every tenant's activities and workflow tasks; the processing steps run here, in this process,
 * against the real PostgreSQL, MinIO, LanceDB and expression sandbox, while `perf_hooks.monitorEventLoopDelay`
 * measures how long they hold the loop. A 16 MB text goes through every step that reads it, and no step may add
 * more than MAX_ADDED_MS to the loop's delay over its idle noise (judged by the best of TRIES, as the API's guard
 * does: a loaded machine stalls a process now and then, work a step does on the loop stalls it every try).
 *
 * Before the text work moved to the data lane, chunking this file held the loop ~400 ms, counting its words
 * ~100 ms, and writing its 10,000 vectors to LanceDB (built value by value into Arrow) ~440 ms. Timing-sensitive:
 * scripts/test runs it on its own (EXCLUSIVE_TESTS).
 */

const MAX_ADDED_MS = 100;
const TRIES = 3;
const TEXT_BYTES = 16 * 1024 * 1024;

let api: TestApi;
let tenant: TestTenant;
let vectors: VectorStore;
let idleMs: number;

/** Prose in paragraphs, as a long report would be. */
function prose(): Buffer {
  const sentence = 'The sourdough loaf rose slowly overnight in the cold kitchen, and by morning its crust had cracked. ';
  const paragraph = `${sentence.repeat(8)}\n\n`;
  return Buffer.from(paragraph.repeat(Math.floor(TEXT_BYTES / paragraph.length)));
}

beforeAll(async () => {
  // Processing is started by this file, in this process: the shared worker must not process the upload too.
  ({ api, tenant } = await startApiWithTenant({ CONTENT_PROCESS_ON_UPLOAD: 'false' }));
  vectors = createVectorStore(api.config.content, api.config.minio);
  const samples: number[] = [];
  for (let i = 0; i < 30; i++) samples.push((await loopDelayDuring(() => new Promise((resolve) => setTimeout(resolve, 20)))).delayMs);
  samples.sort((a, b) => a - b);
  idleMs = samples[Math.floor(samples.length * 0.9)]!;
}, 120_000);

afterAll(async () => {
  await vectors?.close();
  await closeSandbox();
  await api?.close();
});

test("a 16 MB text's processing steps hold the worker's event loop at most 100 ms at a time", async () => {
  const upload = await uploadContent(api, tenant.owner.token, { filename: 'report.txt', type: 'text/plain', bytes: prose(), title: 'a long report' });
  expect(upload.status).toBe(201);
  const c = api.config.content;
  const input: StepInput = {
    jobId: randomUUID(),
    organizationId: tenant.organizationId,
    contentId: upload.body.id,
    version: 1,
    maxAttempts: 1,
    maxBytes: c.processingMaxBytes,
    chunkSize: c.chunkSize,
    chunkOverlap: Math.min(c.chunkOverlap, Math.floor(c.chunkSize / 2)),
  };
  const steps: ProcessingStep[] = ['extract_text', 'extract_metadata', 'convert', 'chunk', 'embed'];
  const held: Partial<Record<ProcessingStep, number>> = {};
  const outputs: Partial<Record<ProcessingStep, Record<string, unknown>>> = {};
  for (const step of steps) {
    for (let i = 0; i < TRIES && (held[step] === undefined || held[step]! > idleMs + MAX_ADDED_MS); i++) {
      const ctx = await loadStepContext(api.deps, vectors, input);
      const { result, delayMs } = await loopDelayDuring(() => STEP_RUNNERS[step](ctx));
      outputs[step] = result.output;
      held[step] = Math.min(held[step] ?? Infinity, delayMs);
    }
  }
  // The steps did their work: the text, its statistics, 10,000 chunks (the cap) and a vector for each, plus the
  // document's.
  expect(outputs.extract_text).toMatchObject({ format: 'text' });
  expect(outputs.extract_metadata).toMatchObject({ text: { lines: expect.any(Number), words: expect.any(Number) } });
  expect(outputs.chunk).toMatchObject({ chunks: MAX_CHUNKS });
  expect(outputs.embed).toMatchObject({ vectors: MAX_CHUNKS });
  expect(await vectors.countRows(tenant.organizationId, upload.body.id)).toBe(MAX_CHUNKS + 1);
  const search = await api.request('POST', '/api/v1/content/search', { token: tenant.owner.token, body: { query: 'sourdough crust', mode: 'semantic' } });
  expect(search.status).toBe(200);
  expect(search.body.data[0]).toMatchObject({ content: { id: upload.body.id } });

  const over = Object.entries(held).filter(([, ms]) => ms! > idleMs + MAX_ADDED_MS);
  expect({ over, idleMs, held }).toEqual({ over: [], idleMs, held });
}, 600_000);
