import { chunksOffLoop, embedChunksOffLoop, extractTextOffLoop, htmlToTextOffLoop, structureOffLoop, textStatsOffLoop } from '../../activities/content/offLoop';
import { chunkText } from '../../lib/content/chunking';
import { PermanentContentError } from '../../lib/content/errors';
import { extractText, htmlToText, structuredData, textStats } from '../../lib/content/extractors';
import { createLexicalHashProvider, createWordVectorProvider } from '../../lib/embeddings';
import { flatten } from '../../lib/embeddings/flatVectors';
import { closeSandbox, INLINE_PARSE_CHARS } from '../../lib/expressions/sandbox';

/**
 * Content processing works on large files in the expression sandbox (real processes): parsing CSV, JSON, XML and
 * HTML, decoding and counting plain text, chunking and built-in embedding. The same results and the same coded
 * failures as in place.
 */
afterAll(() => closeSandbox());

const rows = Array.from({ length: 6000 }, (_, i) => `${i},name ${i}`).join('\n');
const csv = Buffer.from(`id,name\n${rows}\n`);
const xml = Buffer.from(`<r>${Array.from({ length: 5000 }, (_, i) => `<i n="${i}">v${i}</i>`).join('')}</r>`);
const html = Buffer.from(`<html><body>${'<p>hello <b>world</b></p>'.repeat(4000)}<script>x()</script></body></html>`);

test('large files give what they give in place', async () => {
  for (const file of [csv, xml, html]) expect(file.length).toBeGreaterThan(INLINE_PARSE_CHARS);
  for (const [file, mime] of [[csv, 'text/csv'], [xml, 'application/xml']] as const) {
    const inPlace = await extractText(file, mime);
    const offLoop = await extractTextOffLoop(file, mime, 'org');
    expect({ text: offLoop.bytes.toString('utf8'), chars: offLoop.chars, format: offLoop.format }).toEqual({ ...inPlace, chars: inPlace.text.length });
  }
  const htmlText = htmlToText(html.toString('utf8'));
  const htmlOffLoop = await htmlToTextOffLoop(html, 'org');
  expect({ text: htmlOffLoop.bytes.toString('utf8'), chars: htmlOffLoop.chars }).toEqual({ text: htmlText, chars: htmlText.length });
  expect(await structureOffLoop(csv, 'text/csv', 'org')).toEqual({ kind: 'array', items: 6000, columns: ['id', 'name'] });
  expect(await structureOffLoop(xml, 'application/xml', 'org')).toEqual({ kind: 'object', keys: ['r'] });
});

test('a text with characters outside ASCII keeps its characters and their count', async () => {
  const text = `id,name\n${Array.from({ length: 6000 }, (_, i) => `${i},Zoë ☃ ${i}`).join('\n')}\n`;
  const offLoop = await extractTextOffLoop(Buffer.from(text), 'text/csv', 'org');
  const inPlace = await extractText(Buffer.from(text), 'text/csv');
  expect(offLoop.bytes.toString('utf8')).toBe(inPlace.text);
  expect(offLoop.chars).toBe(inPlace.text.length);
});

test('a file the extractors refuse keeps its permanent failure, code and message', async () => {
  const broken = Buffer.from(`{"a": [${'1,'.repeat(40_000)}`);
  const offLoop = await structureOffLoop(broken, 'application/json', 'org').catch((e: unknown) => e);
  let inPlace: unknown;
  try {
    structuredData(broken, 'application/json');
  } catch (e) {
    inPlace = e;
  }
  expect(offLoop).toBeInstanceOf(PermanentContentError);
  expect(inPlace).toBeInstanceOf(PermanentContentError);
  expect({ code: (offLoop as PermanentContentError).code, message: (offLoop as PermanentContentError).message }).toEqual({
    code: (inPlace as PermanentContentError).code,
    message: (inPlace as PermanentContentError).message,
  });
});

const prose = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} tells of bread, flour and water. It rises overnight!\n\n`).join('');

test('large plain text: its text, statistics and chunks are those made in place', async () => {
  const file = Buffer.from(`${prose}Zoë ☃ at the end`);
  expect(file.length).toBeGreaterThan(INLINE_PARSE_CHARS);
  const inPlace = await extractText(file, 'text/plain');
  const text = await extractTextOffLoop(file, 'text/plain', 'org');
  expect({ text: text.bytes.toString('utf8'), chars: text.chars }).toEqual({ text: inPlace.text, chars: inPlace.text.length });
  expect(await textStatsOffLoop(file, 'text/plain', 'org')).toEqual(textStats(inPlace.text));
  expect(await textStatsOffLoop(Buffer.from(`<p>${prose}</p>`), 'text/html', 'org')).toEqual(textStats(htmlToText(`<p>${prose}</p>`)));
  const chunks = await chunksOffLoop(text.bytes, 500, 80, 'org');
  const expected = chunkText(inPlace.text, 500, 80);
  expect({ count: chunks.count, chunks: JSON.parse(chunks.bytes.toString('utf8')) }).toEqual({ count: expected.length, chunks: expected });
});

test("large documents: a built-in embedder's vectors from the data lane are those made in place", async () => {
  const chunks = chunkText(prose, 300, 50);
  const json = Buffer.from(JSON.stringify(chunks));
  expect(json.length).toBeGreaterThan(INLINE_PARSE_CHARS);
  for (const provider of [createWordVectorProvider(), createLexicalHashProvider(64)]) {
    const inPlace = flatten(await provider.embed(chunks.map((c) => c.text), 'document'), provider.dimensions);
    const offLoop = await embedChunksOffLoop(json, chunks, provider, 'org');
    expect({ model: provider.model, dimensions: offLoop.dimensions, count: offLoop.count }).toEqual({ model: provider.model, dimensions: provider.dimensions, count: chunks.length });
    expect(Array.from(offLoop.values)).toEqual(Array.from(inPlace.values));
  }
});
