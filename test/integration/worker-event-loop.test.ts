import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadStepContext, type StepInput } from '../../activities/content/context';
import contentRead from '../../activities/tools/content_read';
import { JSONATA_LIMITS, transform } from '../../activities/tools/json_transform';
import { SerializedJson } from '../../lib/serializedJson';
import { storeSerialized, StoredValueReader } from '../../activities/runs/values';
import httpRequest from '../../activities/tools/http_request';
import { workflowFileKey } from '../../activities/tools/support/files';
import type { ToolContext } from '../../activities/tools/types';
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
 * The worker's event-loop guard (issue 40: no tenant stalls the shared worker). The worker's event loop runs every
 * tenant's activities and workflow tasks; here the worker's code runs in this process, against the real
 * PostgreSQL, MinIO, LanceDB and expression sandbox, while `perf_hooks.monitorEventLoopDelay` measures how long it
 * holds the loop: every content-processing step on a 16 MB text, and the tools that parse what a tenant points them
 * at (content_read of a 9 MB JSON file, http_request answered with 4.4 MB of JSON), json_transform's large
 * results, and a node reading a large stored output of the node before it. No piece of work may add more than
 * MAX_ADDED_MS to the loop's delay over its idle noise (judged by the best of TRIES, as the API's guard does: a
 * loaded machine stalls a process now and then, work done on the loop stalls it every try).
 *
 * Before the work left the loop, chunking the text held it ~220 ms, counting its words ~120 ms, writing its 10,000
 * vectors to LanceDB (built value by value into Arrow) ~385 ms, JSON.parse of the tools' answers 250-500 ms, a
 * transform's result of 300,000 objects (parsed from the sandbox's channel) 420-460 ms, and reading a stored output
 * of 9 MB of them (JSON.parse, a walk copying it, the trip to the sandbox) 2,051 ms. Timing-sensitive: scripts/test
 * runs it on its own (EXCLUSIVE_TESTS).
 */

const MAX_ADDED_MS = 100;
const TRIES = 3;
const TEXT_BYTES = 16 * 1024 * 1024;

let api: TestApi;
let tenant: TestTenant;
let vectors: VectorStore;
let idleMs: number;

/** The best of up to TRIES runs of `work` (given the try's number): the smallest delay it added to the loop. */
async function leastHeld<T>(work: (attempt: number) => Promise<T>): Promise<{ result: T; delayMs: number }> {
  let best = await loopDelayDuring(() => work(0));
  for (let i = 1; i < TRIES && best.delayMs > idleMs + MAX_ADDED_MS; i++) {
    const { result, delayMs } = await loopDelayDuring(() => work(i));
    best = { result, delayMs: Math.min(best.delayMs, delayMs) };
  }
  return best;
}

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
    const { result, delayMs } = await leastHeld(async () => STEP_RUNNERS[step](await loadStepContext(api.deps, vectors, input)));
    outputs[step] = result.output;
    held[step] = delayMs;
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

test('content_read of 9 MB of JSON and http_request answered 4.4 MB of it hold the loop at most 100 ms at a time', async () => {
  // An object of many keys: the JSON that costs JSON.parse the most per byte (~250 ms for 4.4 MB on the loop). Each
  // try has keys of its own: V8 keeps the keys it has parsed once, and a second parse of the same ones is cheap.
  const keyed = (prefix: string, count: number) => Buffer.from(`{${Array.from({ length: count }, (_, i) => `"${prefix}${i}":1`).join(',')}}`);
  const fileKeys = 650_000; // ~9 MB: content_read reads up to 10 MB
  const answerKeys = 320_000; // ~4.4 MB: http_request reads answers up to 5 MB
  for (let i = 0; i < TRIES; i++) {
    const file = keyed(`f${i}_`, fileKeys);
    await api.deps.storage.putObject(api.config.minio.bucket, workflowFileKey(tenant.organizationId, `guard/keys-${i}.json`), file, file.length);
  }
  // Tools may reach 127.0.0.3 here (test/setup/globalSetup.ts), the stand-in for a public API.
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(keyed(`a${req.url!.slice(1)}_`, answerKeys));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.3', resolve));
  const ctx: ToolContext = {
    organizationId: tenant.organizationId,
    runId: randomUUID(),
    nodeId: 'guard',
    attempt: 1,
    idempotencyKey: 'guard',
    deps: api.deps,
    signal: new AbortController().signal,
    heartbeat: () => undefined,
  };
  try {
    const read = await leastHeld((attempt) => contentRead.execute({ path: `guard/keys-${attempt}.json`, encoding: 'json' }, ctx));
    const url = `http://127.0.0.3:${(server.address() as AddressInfo).port}`;
    const fetched = await leastHeld((attempt) => httpRequest.execute({ url: `${url}/${attempt}` }, ctx));
    // They did their work: the outputs hold the files' values (serialized, for the worker to store as they are).
    const parsed = (output: unknown) => ((output as { parse?: () => unknown }).parse?.() ?? output) as Record<string, Record<string, number>>;
    expect(Object.keys(parsed(read.result).content!)).toHaveLength(fileKeys);
    expect(Object.keys(parsed(fetched.result).body!)).toHaveLength(answerKeys);
    const held = { content_read: read.delayMs, http_request: fetched.delayMs };
    const over = Object.entries(held).filter(([, ms]) => ms > idleMs + MAX_ADDED_MS);
    expect({ over, idleMs, held }).toEqual({ over: [], idleMs, held });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}, 300_000);

test("json_transform's large result holds the loop at most 100 ms", async () => {
  // 300,000 objects, each with a key of its own (the most costly JSON to parse per byte), under a deadline long
  // enough to build them on any machine; the tool's own deadline (2 s) bounds what one transform builds, not how.
  const limits = { ...JSONATA_LIMITS, timeoutMs: 30_000, maxSequence: 1_000_000 };
  const expression = (attempt: number) => `$map([1..300000], function($v){ {"t${attempt}_" & $string($v): $v} })`;
  const { result, delayMs } = await leastHeld((attempt) => transform(expression(attempt), null, {}, limits, tenant.organizationId));
  expect(result).toBeInstanceOf(SerializedJson);
  const items = ((result as SerializedJson).parse() as { result: Record<string, number>[] }).result;
  expect({ items: items.length, last: items[299_999] }).toEqual({ items: 300_000, last: { [Object.keys(items[299_999]!)[0]!]: 300_000 } });
  expect({ delayMs, idleMs }).toEqual({ delayMs: expect.any(Number), idleMs });
  expect(delayMs).toBeLessThanOrEqual(idleMs + MAX_ADDED_MS);
}, 300_000);

test('a node reading a 6 MB stored output of the node before it holds the loop at most 100 ms', async () => {
  // What a json_transform after content_read or xml_parse does: the worker reads the stored output, parses it and
  // hands it to the sandbox. Many small objects with keys of their own per try (see above).
  const runId = randomUUID();
  const refs: Awaited<ReturnType<typeof storeSerialized>>[] = [];
  for (let i = 0; i < TRIES; i++) {
    const items = Array.from({ length: 200_000 }, (_, n) => `{"s${i}_${n}":${n},"t":"x"}`).join(',');
    refs.push(await storeSerialized(api.deps, tenant.organizationId, runId, `before-${i}`, `{"items":[${items}]}`));
  }
  const { result, delayMs } = await leastHeld(async (attempt) => {
    const data = await new StoredValueReader(api.deps, tenant.organizationId).resolve({ value: refs[attempt] });
    return transform('$count(value.items)', data, {}, JSONATA_LIMITS, tenant.organizationId);
  });
  expect(result).toEqual({ result: 200_000 });
  expect({ delayMs, idleMs }).toEqual({ delayMs: expect.any(Number), idleMs });
  expect(delayMs).toBeLessThanOrEqual(idleMs + MAX_ADDED_MS);
}, 300_000);
