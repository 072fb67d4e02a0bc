import { hasLongStrings, serializeJson } from '../../lib/cooperativeJson';

/** serializeJson writes exactly JSON.stringify's bytes, and lets other work run while it serializes a long string. */
const SLICE = 512 * 1024;

const same = async (value: unknown): Promise<void> => {
  expect((await serializeJson(value)).toString('utf8')).toBe(JSON.stringify(value ?? null));
};

test('byte for byte JSON.stringify: escapes, surrogate pairs across slices, lone surrogates, left-out members', async () => {
  const escapes = `"quoted" \\ back\nline\ttab\u0001\u001f ${'a'.repeat(SLICE)}`;
  // A pair whose halves would straddle the first slice's end, and another at every later boundary.
  const pairs = `${'b'.repeat(SLICE - 1)}😀${'c'.repeat(SLICE - 2)}😀😀`;
  const lone = `${'d'.repeat(SLICE - 1)}\ud83d${'e'.repeat(SLICE)}\ude00 end`;
  const unicode = `Zoë ☃ ${'ü'.repeat(SLICE * 2)} 日本`;
  for (const text of [escapes, pairs, lone, unicode]) {
    expect(hasLongStrings(text)).toBe(true);
    await same(text);
    await same({ content: text, size: text.length, nested: { a: [1, 'x'] }, skipped: undefined, fn: () => 1, last: null });
  }
  await same({ first: undefined, content: 'x'.repeat(SLICE) });
  await same({ a: 1, b: 'short' });
  await same(undefined);
  await same(['y'.repeat(SLICE)]);
  expect(hasLongStrings({ a: 'short' })).toBe(false);
  expect(hasLongStrings(['y'.repeat(SLICE)])).toBe(false); // arrays are serialized in one call
});

test('other work runs while a long string is serialized', async () => {
  let ranMeanwhile = false;
  setImmediate(() => (ranMeanwhile = true));
  const bytes = await serializeJson({ content: 'z'.repeat(SLICE * 4) });
  // In one call, the answer would be ready before any immediate callback had its turn.
  expect(ranMeanwhile).toBe(true);
  expect(bytes.length).toBe(SLICE * 4 + '{"content":""}'.length);
});
