import { Readable } from 'node:stream';
import { Context } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityDeps } from '../../activities/deps';
import { StoredValueReader, STORED_VALUE_LIMITS } from '../../activities/runs/values';
import { ValueMemory, withValueLease } from '../../activities/runs/valueMemory';

/**
 * The worker's memory for stored values being read (activities/runs/valueMemory.ts): activities take what their
 * reads need from one budget, wait when it is spent, and give it back when they end. The oldest holder is always
 * served, so holders waiting on one another still finish.
 */

const MiB = 1024 * 1024;
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('ValueMemory', () => {
  test('grants within the capacity, makes the next wait, and grants it when bytes come back', async () => {
    const memory = new ValueMemory(100);
    const a = memory.lease();
    const b = memory.lease();
    await a.take(60);
    const waiting = b.take(50);
    expect(await settled(waiting)).toBe(false);
    a.close();
    expect(await settled(waiting)).toBe(true);
    expect(memory.held).toBe(50);
    b.close();
    expect(memory.held).toBe(0);
  });

  test('the oldest holder is always served: two holders asking for more do not wait on each other', async () => {
    const memory = new ValueMemory(100);
    const older = memory.lease();
    const younger = memory.lease();
    await older.take(40);
    await younger.take(40);
    const youngerMore = younger.take(40);
    const olderMore = older.take(40);
    expect(await settled(olderMore)).toBe(true); // over the capacity, but the oldest
    expect(await settled(youngerMore)).toBe(false);
    older.close();
    expect(await settled(youngerMore)).toBe(true);
    expect(memory.held).toBe(80);
  });

  test('a request of an activity that ends while it waits is refused, and takes nothing', async () => {
    const memory = new ValueMemory(10);
    const a = memory.lease();
    const b = memory.lease();
    await a.take(10);
    const waiting = b.take(5);
    b.close();
    await expect(waiting).rejects.toThrow('the activity ended');
    a.close();
    expect(memory.held).toBe(0);
  });

  test('a cancelled activity stops waiting; the next in line is served', async () => {
    const memory = new ValueMemory(10);
    const holder = memory.lease();
    const cancel = new AbortController();
    const cancelled = memory.lease({ waits: true, signal: cancel.signal });
    const next = memory.lease();
    await holder.take(8);
    const stuck = cancelled.take(5);
    const queued = next.take(2);
    expect(await settled(queued)).toBe(false); // in line behind the cancelled one
    cancel.abort(new Error('run cancelled'));
    await expect(stuck).rejects.toThrow('run cancelled');
    expect(await settled(queued)).toBe(true);
    expect(memory.held).toBe(10);
  });

  test('activities that must not wait are counted at once; zero bytes register nothing', async () => {
    const memory = new ValueMemory(10);
    const tool = memory.lease();
    const bookkeeping = memory.lease({ waits: false });
    const empty = memory.lease();
    await empty.take(0);
    await tool.take(10);
    await bookkeeping.take(5);
    expect(memory.held).toBe(15);
    bookkeeping.close();
    tool.close();
    empty.close();
    expect(memory.held).toBe(0);
    // Had the empty lease counted as the oldest holder, this request would be served over the capacity.
    const late = memory.lease();
    await late.take(10);
    expect(await settled(memory.lease().take(1))).toBe(false);
  });
});

describe('stored values read within the worker budget', () => {
  /** One stored object of `bytes`, in memory. */
  function depsWith(bytes: number): { deps: ActivityDeps; ref: { $ref: string } } {
    const body = Buffer.from(JSON.stringify('x'.repeat(bytes - 2)));
    const storage = {
      statObject: async () => ({ size: body.length }),
      getObject: async () => Readable.from([body]),
    };
    const deps = { config: { minio: { bucket: 'loom' } }, storage } as unknown as ActivityDeps;
    return { deps, ref: { $ref: 's3://loom/org/o1/runs/r1/big.json' } };
  }

  test('a second activity reading a large value waits until the first has ended', async () => {
    const { deps, ref } = depsWith(MiB);
    // Room for one read of 1 MiB (three bytes counted per stored byte).
    const memory = new ValueMemory(3 * MiB);
    const first = memory.lease();
    const second = memory.lease();
    await new StoredValueReader(deps, 'o1', STORED_VALUE_LIMITS, first).load(ref);
    expect(memory.held).toBe(3 * MiB);
    const blocked = new StoredValueReader(deps, 'o1', STORED_VALUE_LIMITS, second).load(ref);
    expect(await settled(blocked)).toBe(false);
    first.close();
    expect(await settled(blocked)).toBe(true);
    second.close();
    expect(memory.held).toBe(0);
  });

  test("inside an activity the reader takes the activity's lease, given back when the activity ends", async () => {
    const { deps, ref } = depsWith(MiB);
    const memory = new ValueMemory(64 * MiB);
    let heldInside = 0;
    await new MockActivityEnvironment().run(() =>
      withValueLease(memory, Context.current(), true, async () => {
        await new StoredValueReader(deps, 'o1').load(ref);
        heldInside = memory.held;
      }),
    );
    expect(heldInside).toBe(3 * MiB);
    expect(memory.held).toBe(0);
  });
});
