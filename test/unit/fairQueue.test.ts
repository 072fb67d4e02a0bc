import { FairQueue } from '../../lib/fairQueue';

/** The fair queue behind the shared sandbox lanes: organizations in turn, fewest held first, a cap per organization. */
describe('FairQueue', () => {
  test('serves keys in turn, each key in its own order', () => {
    const queue = new FairQueue<string>(10);
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    const taken: string[] = [];
    for (let next = queue.take(); next; next = queue.take()) {
      taken.push(next.item);
      queue.release(next.key);
    }
    expect(taken).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    expect(queue.size).toBe(0);
  });

  test('a free slot goes to the key holding fewest; a key at its cap waits even when slots are free', () => {
    const queue = new FairQueue<string>(2);
    for (let i = 1; i <= 5; i++) queue.push('flood', `f${i}`);
    expect(queue.take()).toEqual({ key: 'flood', item: 'f1' });
    expect(queue.take()).toEqual({ key: 'flood', item: 'f2' });
    expect(queue.hasEligible()).toBe(false);
    expect(queue.take()).toBeNull(); // the third slot stays for others
    queue.push('other', 'o1');
    expect(queue.take()).toEqual({ key: 'other', item: 'o1' }); // ahead of the three floods waiting before it
    queue.release('flood');
    queue.push('other', 'o2');
    // flood holds 1, other holds 1: flood was served longest ago
    expect(queue.take()).toEqual({ key: 'flood', item: 'f3' });
    queue.release('other');
    expect(queue.take()).toEqual({ key: 'other', item: 'o2' });
    expect(queue.held('flood')).toBe(2);
    expect(queue.drain()).toEqual(['f4', 'f5']);
    expect(queue.size).toBe(0);
  });

  test('a cap below one is refused', () => {
    expect(() => new FairQueue(0)).toThrow(/at least one/);
  });
});
