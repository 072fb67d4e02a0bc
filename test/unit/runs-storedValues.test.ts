import { Readable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import type { ActivityDeps } from '../../activities/deps';
import { defineTool } from '../../activities/tools/types';
import { buildScope } from '../../activities/runs/resolve';
import { createRunActivities } from '../../activities/runs/runActivities';
import { runTool } from '../../activities/runs/toolActivities';
import { loadValue, resolveRefs, storeValue } from '../../activities/runs/values';
import type { ToolActivityInput, ValueRef } from '../../lib/runs/types';

/**
 * Reading stored values (`{ $ref }`, docs/runs.md#large-values) is limited per activity: one object at most 32 MiB
 * (checked before it is read), 64 MiB for all references expanded (repeats counted each time), 1,000 distinct
 * objects, 10,000 references; each object is downloaded once. Over a limit the node fails VALUE_TOO_LARGE, not
 * retryable. The storage is in memory; an object may declare a larger size than its body, so that a test can stand
 * for a large object without allocating it (the reader asks for the size first and downloads nothing over a limit).
 */

const MiB = 1024 * 1024;
const BUCKET = 'loom';
const ORG = 'o1';

class MemoryStorage {
  private readonly objects = new Map<string, { body: Buffer; declaredSize?: number }>();
  readonly reads: string[] = [];
  bytesRead = 0;

  put(key: string, value: unknown, declaredSize?: number): ValueRef {
    this.objects.set(key, { body: Buffer.from(JSON.stringify(value), 'utf8'), declaredSize });
    return { $ref: `s3://${BUCKET}/${key}` };
  }

  async statObject(_bucket: string, key: string): Promise<{ size: number; etag: string; lastModified: Date; metaData: Record<string, string> }> {
    const object = this.objects.get(key);
    if (!object) throw Object.assign(new Error(`no object ${key}`), { code: 'NotFound' });
    return { size: object.declaredSize ?? object.body.length, etag: 'e', lastModified: new Date(0), metaData: {} };
  }

  async getObject(_bucket: string, key: string): Promise<Readable> {
    const object = this.objects.get(key);
    if (!object) throw Object.assign(new Error(`no object ${key}`), { code: 'NoSuchKey' });
    this.reads.push(key);
    const { body } = object;
    // in chunks, each counted when the reader takes it
    const chunks = function* (storage: MemoryStorage): Generator<Buffer> {
      for (let at = 0; at < body.length; at += 64 * 1024) {
        const chunk = body.subarray(at, at + 64 * 1024);
        storage.bytesRead += chunk.length;
        yield chunk;
      }
    };
    return Readable.from(chunks(this));
  }

  async putObject(_bucket: string, key: string, body: Buffer): Promise<{ etag: string }> {
    this.objects.set(key, { body });
    return { etag: 'e' };
  }
}

function setUp(): { storage: MemoryStorage; deps: ActivityDeps } {
  const storage = new MemoryStorage();
  const deps = { config: { minio: { bucket: BUCKET } }, storage } as unknown as ActivityDeps;
  return { storage, deps };
}

const key = (name: string): string => `org/${ORG}/runs/run1/${name}.json`;
const copies = <T>(count: number, value: T): T[] => Array.from({ length: count }, () => value);
/** a node output of about `bytes` serialized */
const outputOf = (bytes: number): { body: string } => ({ body: 'x'.repeat(bytes - 11) });

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => null,
    (err: unknown) => err,
  );
}

describe('resolving references', () => {
  test('owned references resolve, also inside stored values; foreign ones stay as they are', async () => {
    const { storage, deps } = setUp();
    const inner = storage.put(key('inner'), { n: 1 });
    const outer = storage.put(key('outer'), { rows: [inner, inner] });
    const foreign = { $ref: `s3://${BUCKET}/org/other/runs/r/x.json` };
    const big = storage.put(key('big'), outputOf(6 * MiB));
    const resolved = await resolveRefs(deps, ORG, { a: outer, b: foreign, c: [big], d: 'plain' });
    expect(resolved).toEqual({ a: { rows: [{ n: 1 }, { n: 1 }] }, b: foreign, c: [outputOf(6 * MiB)], d: 'plain' });
  });

  test("a loop item's stored output (`each[3]`) resolves: its key holds no `..`", async () => {
    const { deps } = setUp();
    const ref = await storeValue(deps, ORG, 'run1', 'each[3]', { result: 'item 3' });
    expect(ref.$ref).toBe(`s3://${BUCKET}/${key('each.3')}`);
    expect(await resolveRefs(deps, ORG, { items: [ref] })).toEqual({ items: [{ result: 'item 3' }] });
  });

  test('each stored object is downloaded once, and every use of it is its own copy', async () => {
    const { storage, deps } = setUp();
    const shared = storage.put(key('shared'), { list: [1, 2] });
    const resolved = (await resolveRefs(deps, ORG, copies(5, shared))) as { list: number[] }[];
    expect(resolved).toEqual(copies(5, { list: [1, 2] }));
    expect(storage.reads).toEqual([key('shared')]);
    resolved[0]!.list.push(3);
    expect(resolved[1]!.list).toEqual([1, 2]);
  });

  test('the reported attack: 700 references to one 7 MB output fail VALUE_TOO_LARGE after one download', async () => {
    const { storage, deps } = setUp();
    // declares 7 MB (the http_request of a 5 MB body as base64) without allocating them
    const output = storage.put(key('fetch'), outputOf(1000), 7_000_000);
    const err = await failureOf(resolveRefs(deps, ORG, { list: copies(700, output) }));
    expect(err).toMatchObject({ code: 'VALUE_TOO_LARGE', message: expect.stringContaining('64 MiB') });
    expect(storage.reads.length).toBeLessThanOrEqual(1);
  });

  test('the same with real bytes: 700 references to a 128 KiB output are 87.5 MiB resolved, over 64 MiB', async () => {
    const { storage, deps } = setUp();
    const output = storage.put(key('fetch'), outputOf(128 * 1024));
    const err = await failureOf(resolveRefs(deps, ORG, copies(700, output)));
    expect(err).toMatchObject({ code: 'VALUE_TOO_LARGE' });
    expect(storage.bytesRead).toBeLessThanOrEqual(128 * 1024);
  });

  test('references inside stored values multiply: each expansion counts', async () => {
    const { storage, deps } = setUp();
    const leaf = storage.put(key('leaf'), outputOf(128 * 1024));
    // 7.5 MiB once resolved, ten times over
    const fan = storage.put(key('fan'), copies(60, leaf));
    const err = await failureOf(resolveRefs(deps, ORG, copies(10, fan)));
    expect(err).toMatchObject({ code: 'VALUE_TOO_LARGE' });
    expect([...new Set(storage.reads)].sort()).toEqual([key('fan'), key('leaf')]);
    expect(storage.reads).toHaveLength(2);
  });

  test('a stored value over 32 MiB is refused before a byte of it is read', async () => {
    const { storage, deps } = setUp();
    const huge = storage.put(key('huge'), outputOf(1000), 33 * MiB);
    const direct = await failureOf(loadValue(deps, ORG, huge));
    expect(direct).toMatchObject({ code: 'VALUE_TOO_LARGE', message: expect.stringContaining('32 MiB') });
    const resolving = await failureOf(resolveRefs(deps, ORG, { value: huge }));
    expect(resolving).toMatchObject({ code: 'VALUE_TOO_LARGE' });
    expect(storage.reads).toEqual([]);
  });

  test('more than 1,000 distinct stored values fail VALUE_TOO_LARGE', async () => {
    const { storage, deps } = setUp();
    const refs = Array.from({ length: 1001 }, (_, i) => storage.put(key(`v${i}`), i));
    expect(await resolveRefs(deps, ORG, refs.slice(0, 1000))).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    const err = await failureOf(resolveRefs(deps, ORG, refs));
    expect(err).toMatchObject({ code: 'VALUE_TOO_LARGE', message: expect.stringContaining('1000 distinct') });
  });

  test('more than 10,000 references, repeats included, fail VALUE_TOO_LARGE', async () => {
    const { storage, deps } = setUp();
    const tiny = storage.put(key('tiny'), 1);
    expect(await resolveRefs(deps, ORG, copies(10_000, tiny))).toHaveLength(10_000);
    const err = await failureOf(resolveRefs(deps, ORG, copies(10_001, tiny)));
    expect(err).toMatchObject({ code: 'VALUE_TOO_LARGE', message: expect.stringContaining('10000 references') });
  });

  test("the limits hold for a node's scope as a whole: parameters, outputs and iterator together", async () => {
    const { storage, deps } = setUp();
    const output = storage.put(key('fetch'), outputOf(128 * 1024));
    // 37.5 MiB each: either alone is fine
    const params = { list: copies(300, output) };
    const nodes = { fetch: { list: copies(300, output) } };
    await expect(buildScope(deps, ORG, { params, nodes: {} })).resolves.toBeDefined();
    await expect(buildScope(deps, ORG, { params: {}, nodes })).resolves.toBeDefined();
    const err = await failureOf(buildScope(deps, ORG, { params, nodes }));
    expect(err).toMatchObject({ code: 'VALUE_TOO_LARGE' });
    const viaIterator = await failureOf(
      buildScope(deps, ORG, { params, nodes: {}, iterator: { name: 'item', value: copies(300, output), index: 0 } }),
    );
    expect(viaIterator).toMatchObject({ code: 'VALUE_TOO_LARGE' });
  });
});

describe('activities fail the node, not retryable', () => {
  function expectValueTooLarge(err: unknown): void {
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'VALUE_TOO_LARGE', nonRetryable: true });
  }

  test('a tool node whose parameters expand past the limits fails before its tool runs', async () => {
    const { storage, deps } = setUp();
    const output = storage.put(key('fetch'), outputOf(1000), 7_000_000);
    const execute = jest.fn(async () => ({}));
    const tool = defineTool({
      id: 'probe',
      name: 'probe',
      category: 'custom',
      description: 'records that it ran',
      input: z.object({}),
      output: z.unknown(),
      sideEffect: 'none',
      execute,
    });
    const input: ToolActivityInput = {
      organizationId: ORG,
      workflowId: 'w',
      runId: 'run2',
      nodeId: 'n',
      config: {},
      inputs: [],
      outputs: [],
      context: { params: { list: copies(700, output) }, nodes: {} },
      attemptBase: 0,
      largeOutputBytes: 256 * 1024,
    };
    const err = await failureOf(new MockActivityEnvironment().run(runTool, deps, tool, input));
    expectValueTooLarge(err);
    expect((err as ApplicationFailure).details).toEqual([{ attempt: 1 }]);
    expect(execute).not.toHaveBeenCalled();
  });

  const loopItems = {
    organizationId: ORG,
    runId: 'run2',
    nodeId: 'each',
    items: 'params.list',
    maxItems: 10_000,
    largeOutputBytes: 256 * 1024,
  };

  test('loop items expanding past the limits', async () => {
    const { storage, deps } = setUp();
    const output = storage.put(key('fetch'), outputOf(128 * 1024));
    const err = await failureOf(
      createRunActivities(deps).runResolveLoopItems({ ...loopItems, context: { params: { list: copies(700, output) }, nodes: {} } }),
    );
    expectValueTooLarge(err);
  });

  test('loop items larger than one stored value may be (every batch reads them back)', async () => {
    const { storage, deps } = setUp();
    // two 20 MiB outputs: 40 MiB to read, within 64 MiB, but a 40 MiB list to store
    const list = [storage.put(key('a'), outputOf(20 * MiB)), storage.put(key('b'), outputOf(20 * MiB))];
    const err = await failureOf(createRunActivities(deps).runResolveLoopItems({ ...loopItems, context: { params: { list }, nodes: {} } }));
    expectValueTooLarge(err);
  });

  test('a batch reading loop items over 32 MiB', async () => {
    const { storage, deps } = setUp();
    const items = storage.put(key('each.items'), [1, 2, 3], 40 * MiB);
    const err = await failureOf(createRunActivities(deps).runLoadLoopItems({ organizationId: ORG, ref: items, start: 0, end: 2 }));
    expectValueTooLarge(err);
    expect(storage.reads).toEqual([]);
  });

  test('combining loop batches: each batch within one stored value, their sum not limited (the items already ran)', async () => {
    const { storage, deps } = setUp();
    const batches = [0, 1, 2].map((i) => storage.put(key(`each.batch-${i}`), [i], 25 * MiB));
    const combined = await createRunActivities(deps).runCombineLoopBatches({ organizationId: ORG, runId: 'run2', nodeId: 'each', batches, largeOutputBytes: 256 * 1024 });
    expect(combined).toEqual({ results: [0, 1, 2], count: 3 });
    expect(storage.reads).toEqual([key('each.batch-0'), key('each.batch-1'), key('each.batch-2')]);
    const oversized = storage.put(key('each.batch-big'), [3], 40 * MiB);
    const err = await failureOf(
      createRunActivities(deps).runCombineLoopBatches({ organizationId: ORG, runId: 'run2', nodeId: 'each', batches: [oversized], largeOutputBytes: 256 * 1024 }),
    );
    expectValueTooLarge(err);
  });
});
