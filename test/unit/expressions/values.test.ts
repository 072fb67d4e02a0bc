import { fromCel, toCel } from '../../../lib/expressions/values';
import { parseExpression, referencesOfExpression } from '../../../lib/expressions';

describe('CEL value conversions', () => {
  test('toCel: integral numbers become ints, __proto__ keys are dropped, undefined becomes null', () => {
    const parsed = JSON.parse('{"a":1,"b":1.5,"__proto__":{"x":1},"c":[2]}') as Record<string, unknown>;
    expect(toCel(parsed)).toEqual({ a: 1n, b: 1.5, c: [2n] });
    expect(toCel(undefined)).toBeNull();
  });

  test('fromCel: ints back to numbers (big ones as strings), maps to objects, bytes to base64', () => {
    expect(fromCel(5n)).toBe(5);
    expect(fromCel(2n ** 70n)).toBe((2n ** 70n).toString());
    expect(fromCel(new Map<unknown, unknown>([['k', 1n], [2, [3n]]]))).toEqual({ k: 1, 2: [3] });
    expect(fromCel(new Uint8Array([104, 105]))).toBe('aGk=');
    expect(fromCel(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    expect(fromCel(undefined)).toBeNull();
  });
});

describe('parseExpression / referencesOfExpression', () => {
  test('chains rooted at identifiers, macro variables excluded', () => {
    expect(parseExpression('a.b').op).toBe('.');
    expect(() => parseExpression('a.constructor')).toThrow(/constructor/);
    expect(referencesOfExpression('a.b.c + size(nodes["x"].y) + l.map(v, v.z).size()')).toEqual(
      expect.arrayContaining([['a', 'b', 'c'], ['nodes', 'x', 'y'], ['l']]),
    );
    expect(referencesOfExpression('l.map(v, v.z)').some((c) => c[0] === 'v')).toBe(false);
  });
});
