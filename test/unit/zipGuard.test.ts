import JSZip from 'jszip';
import { checkZip, ZipRefused } from '../../lib/content/zipGuard';

const LIMITS = { maxTotalBytes: 1024 * 1024, maxEntries: 50 };

async function zip(entries: Record<string, Buffer | string>, compression: 'DEFLATE' | 'STORE' = 'DEFLATE'): Promise<Buffer> {
  const archive = new JSZip();
  for (const [name, content] of Object.entries(entries)) archive.file(name, content);
  return archive.generateAsync({ type: 'nodebuffer', compression });
}

/** Rewrites every declared unpacked size (central directory and local headers) to `size`. */
function lieAboutSizes(bytes: Buffer, size: number): Buffer {
  const out = Buffer.from(bytes);
  for (let at = 0; at + 30 <= out.length; at++) {
    const signature = out.readUInt32LE(at);
    if (signature === 0x02014b50) out.writeUInt32LE(size, at + 24);
    if (signature === 0x04034b50) out.writeUInt32LE(size, at + 22);
  }
  return out;
}

test('an ordinary archive (deflated and stored entries) passes', async () => {
  const text = 'word '.repeat(10_000);
  expect(() => checkZip(Buffer.alloc(0), LIMITS)).toThrow(ZipRefused);
  for (const compression of ['DEFLATE', 'STORE'] as const) {
    const bytes = await zip({ 'word/document.xml': text, '[Content_Types].xml': '<Types/>', 'media/a.bin': Buffer.alloc(1000, 7) }, compression);
    expect(() => checkZip(bytes, LIMITS)).not.toThrow();
  }
});

test('an archive that honestly unpacks past the limit is refused', async () => {
  const bytes = await zip({ 'word/document.xml': Buffer.alloc(2 * 1024 * 1024) });
  expect(bytes.length).toBeLessThan(20_000); // the bomb is small on the wire
  expect(() => checkZip(bytes, LIMITS)).toThrow(/more than 1048576 bytes/);
});

test('an archive that understates its unpacked sizes is refused once inflation passes the declared size', async () => {
  const bytes = lieAboutSizes(await zip({ 'document.xml': Buffer.alloc(4 * 1024 * 1024) }), 1000);
  expect(() => checkZip(bytes, LIMITS)).toThrow(/past its declared size/);
});

test('too many entries, garbage and truncated archives are refused', async () => {
  const many = await zip(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}.txt`, 'x'])));
  expect(() => checkZip(many, LIMITS)).toThrow(/51 entries/);
  expect(() => checkZip(Buffer.from('not a zip at all, just text'), LIMITS)).toThrow(/not a ZIP/);
  const good = await zip({ 'a.txt': 'hello '.repeat(1000) });
  const truncated = Buffer.concat([good.subarray(0, 40), good.subarray(good.length - 200)]);
  expect(() => checkZip(truncated, LIMITS)).toThrow(ZipRefused);
});
