import { createFairSlots } from '../../lib/fairSlots';
import { ServiceUnavailableError } from '../../lib/unavailable';

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

test('one organization holds at most its share; a free slot goes to another organization; waiting is bounded', async () => {
  const slots = createFairSlots({ slots: 2, perKey: 1, maxWaiting: 3, maxWaitingPerKey: 2, what: 'file readers' });
  const releaseA1 = await slots.acquire('a');
  // A second slot is free, but A is at its share: A waits, B gets it.
  const a2 = slots.acquire('a');
  expect(await settled(a2)).toBe(false);
  const releaseB1 = await slots.acquire('b');
  const a3 = slots.acquire('a');
  // A's waiting places are full.
  await expect(slots.acquire('a')).rejects.toBeInstanceOf(ServiceUnavailableError);
  const c1 = slots.acquire('c');
  // Three wait in all: the next one, of any organization, is refused.
  await expect(slots.acquire('d')).rejects.toThrow('3 jobs are already waiting for the file readers; retry later');
  // B's slot goes to C (holding none), not to A's queue; A's own release lets A's next in.
  releaseB1();
  expect(await settled(c1)).toBe(true);
  expect(await settled(a2)).toBe(false);
  releaseA1();
  expect(await settled(a2)).toBe(true);
  expect(await settled(a3)).toBe(false);
  (await a2)();
  expect(await settled(a3)).toBe(true);
});
