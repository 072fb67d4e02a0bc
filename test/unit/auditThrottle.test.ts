import { createAuditThrottle } from '../../domain/audit/throttle';

describe('audit throttle', () => {
  test('one entry per key and window; other keys unaffected; allowed again after the window', () => {
    const throttle = createAuditThrottle({ windowMs: 60_000, maxKeys: 100 });
    expect(throttle.allow('a', 0)).toBe(true);
    expect(throttle.allow('a', 59_999)).toBe(false);
    expect(throttle.allow('b', 1)).toBe(true);
    expect(throttle.allow('a', 60_000)).toBe(true);
    expect(throttle.allow('a', 60_001)).toBe(false);
  });

  test('memory is bounded: past maxKeys the oldest keys are forgotten', () => {
    const throttle = createAuditThrottle({ windowMs: 60_000, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) expect(throttle.allow(key, 0)).toBe(true);
    expect(throttle.allow('a', 1)).toBe(true); // forgotten, so allowed once more
    expect(throttle.allow('d', 1)).toBe(false);
  });
});
