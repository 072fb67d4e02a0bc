import { createVerifiedTokenCache } from '../../lib/auth/verifiedTokenCache';

describe('verified token cache', () => {
  const claims = (exp: number) => ({ sub: 'u1', exp });

  it('returns the stored claims until they expire, then forgets them', () => {
    const cache = createVerifiedTokenCache<{ sub: string; exp: number }>(10);
    cache.set('t1', claims(100));
    expect(cache.get('t1', 50)).toEqual({ sub: 'u1', exp: 100 });
    expect(cache.get('t1', 99.999)).toBeDefined();
    // exp is the first second the token is no longer valid, as in the token service.
    expect(cache.get('t1', 100)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.get('t1', 50)).toBeUndefined();
  });

  it('misses on any other string, including a prefix or an extension of a stored token', () => {
    const cache = createVerifiedTokenCache<{ sub: string; exp: number }>(10);
    cache.set('header.payload.signature', claims(100));
    expect(cache.get('header.payload.signatur', 1)).toBeUndefined();
    expect(cache.get('header.payload.signatureX', 1)).toBeUndefined();
    expect(cache.get('HEADER.payload.signature', 1)).toBeUndefined();
  });

  it('stays within its bound, evicting the oldest entry first', () => {
    const cache = createVerifiedTokenCache<{ sub: string; exp: number }>(3);
    for (const token of ['a', 'b', 'c', 'd']) cache.set(token, claims(100));
    expect(cache.size).toBe(3);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(['b', 'c', 'd'].map((token) => cache.get(token, 1) !== undefined)).toEqual([true, true, true]);
    // Setting a stored token again neither grows the cache nor evicts anything.
    cache.set('d', claims(100));
    expect(cache.size).toBe(3);
    expect(cache.get('b', 1)).toBeDefined();
  });

  it('hands out frozen claims, so one request cannot change what the next one sees', () => {
    const cache = createVerifiedTokenCache<{ sub: string; exp: number }>(2);
    cache.set('t', claims(100));
    const hit = cache.get('t', 1)!;
    expect(Object.isFrozen(hit)).toBe(true);
    expect(() => {
      (hit as { sub: string }).sub = 'u2';
    }).toThrow(TypeError);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => createVerifiedTokenCache(0)).toThrow();
    expect(() => createVerifiedTokenCache(1.5)).toThrow();
  });
});
