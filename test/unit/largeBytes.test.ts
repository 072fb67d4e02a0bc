import { Readable } from 'node:stream';
import { decodeUtf8, encodeBase64, encodeUtf8, joinBuffers, readSized, SLICE_BYTES } from '../../lib/largeBytes';

/** A text of `chars` characters mixing 1-, 2-, 3- and 4-byte UTF-8 characters, so slices cut inside characters. */
function mixedText(chars: number): string {
  const alphabet = ['a', 'é', '€', '😀', 'z', '\n'];
  let text = '';
  while (text.length < chars) text += alphabet[text.length % alphabet.length];
  return text;
}

describe('readSized', () => {
  test('joins the chunks of a stream of the stated size', async () => {
    const chunks = [Buffer.from('hello '), Buffer.from('large '), Buffer.from('world')];
    const body = await readSized(Readable.from(chunks), 17, () => new Error('too large'));
    expect(body.toString()).toBe('hello large world');
  });

  test('answers what came when the stream is shorter than stated', async () => {
    const body = await readSized(Readable.from([Buffer.from('abc')]), 10, () => new Error('too large'));
    expect(body.toString()).toBe('abc');
    expect(body.length).toBe(3);
  });

  test('refuses a stream longer than stated, and destroys it', async () => {
    const stream = Readable.from([Buffer.from('abcd'), Buffer.from('efgh')]);
    await expect(readSized(stream, 6, () => new Error('changed while read'))).rejects.toThrow('changed while read');
    expect(stream.destroyed).toBe(true);
  });
});

describe('decodeUtf8 and encodeUtf8', () => {
  test('decode: the same text as toString, characters cut by slice ends included', async () => {
    const bytes = Buffer.from(mixedText(2 * SLICE_BYTES), 'utf8');
    expect(bytes.length).toBeGreaterThan(2 * SLICE_BYTES);
    expect(await decodeUtf8(bytes)).toBe(bytes.toString('utf8'));
  });

  test('decode: a byte order mark and invalid sequences as toString answers them', async () => {
    const junk = Buffer.alloc(3 * SLICE_BYTES);
    for (let i = 0; i < junk.length; i += 1) junk[i] = (i * 7919) % 256;
    junk.set([0xef, 0xbb, 0xbf], 0);
    expect(await decodeUtf8(junk)).toBe(junk.toString('utf8'));
  });

  test('encode: the same bytes as Buffer.from, surrogate pairs at slice ends included', async () => {
    const sliceChars = Math.floor(SLICE_BYTES / 3);
    // A pair of halves exactly across the first slice end.
    const text = `${'x'.repeat(sliceChars - 1)}😀${mixedText(sliceChars * 3)}`;
    expect((await encodeUtf8(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  test('encode: a lone surrogate as Buffer.from writes it', async () => {
    const text = `${'y'.repeat(SLICE_BYTES)}\ud800${'z'.repeat(10)}\udc00`;
    expect((await encodeUtf8(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  test('small values in one call', async () => {
    expect(await decodeUtf8(Buffer.from('small é'))).toBe('small é');
    expect((await encodeUtf8('small é')).toString()).toBe('small é');
  });
});

describe('joinBuffers', () => {
  test('the same bytes as Buffer.concat, small and large', async () => {
    const small = [Buffer.from('a'), Buffer.from('bc')];
    expect((await joinBuffers(small)).toString()).toBe('abc');
    const large = Array.from({ length: 40 }, (_, i) => Buffer.alloc(100_000 + i, i));
    expect((await joinBuffers(large)).equals(Buffer.concat(large))).toBe(true);
    expect(await joinBuffers([])).toEqual(Buffer.alloc(0));
  });
});

describe('encodeBase64', () => {
  test('the same text as toString(base64), lengths around the slice size', async () => {
    for (const length of [5, 3 * SLICE_BYTES + 1, 3 * SLICE_BYTES + 2, 2 * SLICE_BYTES]) {
      const bytes = Buffer.alloc(length);
      for (let i = 0; i < length; i += 1) bytes[i] = (i * 31) % 251;
      expect(await encodeBase64(bytes)).toBe(bytes.toString('base64'));
    }
  });
});
