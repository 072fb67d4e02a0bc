import { PassThrough, Readable } from 'node:stream';
import { TarGzWriter } from '../../lib/archive/tarGz';
import { ArchiveFormatError, readEntryBody, readTarGz } from '../../lib/archive/tarReader';

async function archive(entries: [string, Buffer][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const writer = new TarGzWriter(out);
  for (const [path, data] of entries) await writer.addBuffer(path, data, new Date(0));
  await writer.finish();
  return Buffer.concat(chunks);
}

test('reads back what TarGzWriter wrote: long and non-ASCII names, empty and multi-block entries, unread bodies skipped', async () => {
  const long = `files/${'d'.repeat(120)}/v1/${'é'.repeat(80)}.txt`;
  const big = Buffer.alloc(300_000, 7);
  const bytes = await archive([
    ['organization.json', Buffer.from('{"name":"x"}')],
    [long, Buffer.from('hello')],
    ['empty', Buffer.alloc(0)],
    ['big.bin', big],
    ['manifest.json', Buffer.from('{}')],
  ]);
  const seen: [string, number, string | null][] = [];
  for await (const entry of readTarGz(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]))) {
    // The big body is left unread: the reader skips it.
    const body = entry.path === 'big.bin' ? null : (await readEntryBody(entry, 1024)).toString();
    seen.push([entry.path, entry.size, body]);
  }
  expect(seen).toEqual([
    ['organization.json', 12, '{"name":"x"}'],
    [long, 5, 'hello'],
    ['empty', 0, ''],
    ['big.bin', 300_000, null],
    ['manifest.json', 2, '{}'],
  ]);
});

test('a body is streamed, and a truncated or foreign archive is refused', async () => {
  const bytes = await archive([['big.bin', Buffer.alloc(200_000, 1)]]);
  for await (const entry of readTarGz(Readable.from([bytes]))) {
    let total = 0;
    for await (const chunk of entry.body) total += (chunk as Buffer).length;
    expect(total).toBe(200_000);
  }
  await expect(async () => {
    for await (const entry of readTarGz(Readable.from([bytes.subarray(0, bytes.length - 40)]))) await readEntryBody(entry, 1e6);
  }).rejects.toThrow();
  await expect(async () => {
    for await (const entry of readTarGz(Readable.from([Buffer.from('not gzip at all')]))) void entry;
  }).rejects.toThrow(/not a gzip-compressed archive/);
  await expect(async () => {
    for await (const entry of readTarGz(Readable.from([bytes]))) await readEntryBody(entry, 1000);
  }).rejects.toThrow(ArchiveFormatError);
});
