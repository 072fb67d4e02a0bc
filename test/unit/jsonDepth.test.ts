import { jsonNestedDeeperThan, jsonStringEnd } from '../../lib/jsonDepth';

describe('JSON text scanning', () => {
  test('a string ends at its first unescaped quote', () => {
    expect(jsonStringEnd('"ab"c', 0)).toBe(3);
    expect(jsonStringEnd('"a\\"b"', 0)).toBe(5); // \" inside
    expect(jsonStringEnd('"a\\\\"b', 0)).toBe(4); // \\ then the closing quote
    expect(jsonStringEnd('"never closes', 0)).toBe(13);
  });

  test('nesting is counted outside strings only, up to the limit and one past it', () => {
    expect(jsonNestedDeeperThan(`${'['.repeat(3)}${']'.repeat(3)}`, 3)).toBe(false);
    expect(jsonNestedDeeperThan(`${'['.repeat(4)}${']'.repeat(4)}`, 3)).toBe(true);
    expect(jsonNestedDeeperThan(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
    expect(jsonNestedDeeperThan('[[],[],[]]', 2)).toBe(false); // siblings do not add up
  });
});
