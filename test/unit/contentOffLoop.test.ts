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
  expect(await extractTextOffLoop(csv, 'text/csv', 'org')).toEqual(await extractText(csv, 'text/csv'));
  expect(await extractTextOffLoop(xml, 'application/xml', 'org')).toEqual(await extractText(xml, 'application/xml'));
  expect(await htmlToTextOffLoop(html, 'org')).toBe(htmlToText(html.toString('utf8')));
  expect(await structureOffLoop(csv, 'text/csv', 'org')).toEqual({ kind: 'array', items: 6000, columns: ['id', 'name'] });
  expect(await structureOffLoop(xml, 'application/xml', 'org')).toEqual({ kind: 'object', keys: ['r'] });
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
