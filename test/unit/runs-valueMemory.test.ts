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

  test('a grant that arrives after its activity ended goes straight back', async () => {
    const memory = new ValueMemory(10);
    const a = memory.lease();
    const b = memory.lease();
    await a.take(10);
    const waiting = b.take(5);
    b.close(); // cancelled while waiting
    a.close();
    await waiting;
    expect(memory.held).toBe(0);
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
      withValueLease(memory, Context.current(), async () => {
        await new StoredValueReader(deps, 'o1').load(ref);
        heldInside = memory.held;
      }),
    );
    expect(heldInside).toBe(3 * MiB);
    expect(memory.held).toBe(0);
  });
});
