import { isDeepStrictEqual } from 'node:util';
import { parseJson } from '../../lib/cooperativeJson';

/** parseJson (lib/cooperativeJson.ts): JSON.parse's value for every text, with turns of the event loop when large. */

let seed = 7;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;

/** A random JSON value of about `size` leaves, nested up to `depth`, with awkward strings and keys. */
function randomValue(size: number, depth: number): unknown {
  if (depth === 0 || size <= 1) {
    return pick<unknown>([null, true, false, 0, -1.5e-7, 123456789, 'plain', 'quote " and \\\\ backslash', 'brackets ] } [ {', 'escaped \\" end\\\\', 'ünï ☃ 😀', '']);
  }
  const parts = 1 + Math.floor(random() * 40);
  if (random() < 0.5) return Array.from({ length: parts }, () => randomValue(size / parts, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < parts; i++) out[pick(['a', 'b', '1', '__proto__', 'k"q', `k${i}`, 'ü'])] = randomValue(size / parts, depth - 1);
  return out;
}

const same = async (text: string): Promise<void> => {
  const parsed = await parseJson(text);
  const expected = JSON.parse(text) as unknown;
  expect(isDeepStrictEqual(parsed, expected) && JSON.stringify(parsed) === JSON.stringify(expected)).toBe(true);
};

test('large texts of every shape give what JSON.parse gives', async () => {
  for (let i = 0; i < 6; i++) {
    const value = randomValue(60_000, 6);
    const text = i % 2 ? JSON.stringify(value) : JSON.stringify(value, null, i % 4 === 0 ? 2 : '\t');
    expect(text.length).toBeGreaterThan(300_000);
    await same(text);
  }
  // One member far past a piece, nested: the XML parse output's shape.
  await same(JSON.stringify({ result: { r: { i: Array.from({ length: 40_000 }, (_, n) => ({ '@_id': String(n), '#text': `v${n}` })) } } }));
  // A long string, alone and as a member; numbers at the top level.
  await same(JSON.stringify('x'.repeat(600_000)));
  await same(JSON.stringify({ s: 'y'.repeat(600_000), n: 1 }));
  await same(` [${Array.from({ length: 100_000 }, (_, n) => n * 1.5).join(' , ')}] `);
});

test('own __proto__ members and duplicate keys as JSON.parse has them', async () => {
  const filler = 'z'.repeat(300_000);
  const text = `{"a":1,"__proto__":{"polluted":true},"big":{"__proto__":[1],"f":"${filler}"},"a":2,"f":"${filler}","a":3}`;
  const parsed = (await parseJson(text)) as Record<string, unknown>;
  expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(text) as object));
  expect(parsed.a).toBe(3);
  expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ polluted: true });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  await same(text);
});

test('a broken large text throws a SyntaxError, as JSON.parse does', async () => {
  const good = JSON.stringify(Array.from({ length: 50_000 }, (_, n) => ({ n })));
  for (const broken of [`${good}]`, good.slice(0, -1), `${good.slice(0, 1000)},,${good.slice(1000)}`, `{"a" 1, "b": ${good}}`, `[${good}`]) {
    await expect(parseJson(broken)).rejects.toBeInstanceOf(SyntaxError);
  }
});

test('the event loop turns while a large text is parsed', async () => {
  const text = JSON.stringify({ items: Array.from({ length: 100_000 }, (_, n) => ({ [`k${n}`]: n, s: 'text' })) });
  let turns = 0;
  const ticker = setInterval(() => (turns += 1), 1);
  try {
    await parseJson(text);
  } finally {
    clearInterval(ticker);
  }
  expect(turns).toBeGreaterThan(3);
});
