import { extractTextOffLoop, htmlToTextOffLoop, structureOffLoop } from '../../activities/content/offLoop';
import { PermanentContentError } from '../../lib/content/errors';
import { extractText, htmlToText, structuredData } from '../../lib/content/extractors';
import { closeSandbox, INLINE_PARSE_CHARS } from '../../lib/expressions/sandbox';

/**
 * Content processing parses large CSV, JSON, XML and HTML files in the expression sandbox (real processes): the
 * same text, the same shape and the same coded failures as in place.
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
