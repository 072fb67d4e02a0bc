import { createWriteGate } from '../../../api/http/writeGate';
import { AppError } from '../../../lib/errors';

/** The per-tenant write cap (api/http/writeGate.ts): only the tenant over its share waits or is refused. */

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setImmediate(r));

test('at most `concurrency` of one tenant run at once, the rest in arrival order; another tenant never waits', async () => {
  const gate = createWriteGate({ concurrency: 2, queue: 10, queueTimeoutMs: 10_000 });
  const release = Array.from({ length: 5 }, deferred);
  const started: number[] = [];
  const runs = release.map((d, i) => gate.run('a', async () => { started.push(i); await d.promise; return i; }));
  await tick();
  expect(started).toEqual([0, 1]);
  // B is not behind A's queue.
  expect(await gate.run('b', async () => 'b')).toBe('b');
  release[1]!.resolve();
  await tick();
  expect(started).toEqual([0, 1, 2]);
  release[0]!.resolve();
  await tick();
  expect(started).toEqual([0, 1, 2, 3]);
  for (const d of release) d.resolve();
  expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
});

test('a full queue and a wait past the timeout answer 429 with Retry-After; a failed run frees its slot', async () => {
  const gate = createWriteGate({ concurrency: 1, queue: 1, queueTimeoutMs: 50 });
  const hold = deferred();
  const first = gate.run('a', () => hold.promise);
  const queued = gate.run('a', async () => 'late');
  const full = gate.run('a', async () => 'never');
  await expect(full).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  const timedOut = await queued.catch((e: unknown) => e);
  expect(timedOut).toBeInstanceOf(AppError);
  expect((timedOut as AppError).headers).toEqual({ 'Retry-After': '1' });
  hold.resolve();
  await first;
  await expect(gate.run('a', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
  expect(await gate.run('a', async () => 'free again')).toBe('free again');
});
