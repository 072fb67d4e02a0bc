import { Readable } from 'node:stream';
import { PermanentContentError } from '../../lib/content/errors';
import { extractOffLoop } from '../../lib/content/extractJob';
import { extractText, MAX_XML_VALUE_CHARS, xmlValueLongerThan } from '../../lib/content/extractors';
import { ExpressionError } from '../../lib/expressions/errors';
import { DEFAULT_JSONATA_LIMITS } from '../../lib/expressions/limits';

/** On-demand extraction in a worker thread (docs/content.md, docs/security.md capacity model: API event loop). */

describe('XML values are bounded in bytes', () => {
  test('an attribute value, a text run or a CDATA section past the limit', () => {
    expect(xmlValueLongerThan(`<a b="${'x'.repeat(11)}"/>`, 10)).toBe(true);
    expect(xmlValueLongerThan(`<a b="${'x'.repeat(10)}"/>`, 10)).toBe(false);
    expect(xmlValueLongerThan(`<a>${'y'.repeat(11)}</a>`, 10)).toBe(true);
    expect(xmlValueLongerThan(`<![CDATA[${'q'.repeat(20)}]]>`, 10)).toBe(true);
    // Many short values, and a comment with a lone quote, are fine.
    expect(xmlValueLongerThan(`<!-- don't --><a b='1'>x</a>${'<c d="e">z</c>'.repeat(100)}`, 10)).toBe(false);
  });

  test('a 16 MB attribute is refused before the parser sees it', async () => {
    const xml = Buffer.from(`<root a="${'x'.repeat(MAX_XML_VALUE_CHARS * 16)}"/>`);
    const err = await extractText(xml, 'application/xml').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentContentError);
    expect(err).toMatchObject({ code: 'XML_VALUE_TOO_LONG' });
  });
});

describe('extractOffLoop', () => {
  const csv = Buffer.from(`name,count\n${Array.from({ length: 1000 }, (_, i) => `row${i},${i}`).join('\n')}\n`);
  const from = (bytes: Buffer) => async () => Readable.from([bytes]);

  test('answers the query from the file, in a worker thread', async () => {
    const result = await extractOffLoop('org-a', from(csv), 1_000_000, {
      kind: 'original',
      mime: 'text/csv',
      query: { type: 'jsonata', expression: '$[999].name', limits: DEFAULT_JSONATA_LIMITS },
    });
    expect(result).toBe('row999');
  }, 60_000);

  test('a file over the byte limit is refused while it streams; a bad expression keeps its code', async () => {
    const tooLarge = await extractOffLoop('org-a', from(csv), 100, { kind: 'original', mime: 'text/csv', query: { type: 'text', maxChars: 10 } }).catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(PermanentContentError);
    expect(tooLarge).toMatchObject({ code: 'TOO_LARGE' });
    const invalid = await extractOffLoop('org-a', from(csv), 1_000_000, {
      kind: 'original',
      mime: 'text/csv',
      query: { type: 'jsonata', expression: '$$$(', limits: DEFAULT_JSONATA_LIMITS },
    }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ExpressionError);
    expect(invalid).toMatchObject({ code: 'EXPRESSION_INVALID' });
  }, 60_000);
});
