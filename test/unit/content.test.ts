import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chunkText, MAX_CHUNKS } from '../../lib/content/chunking';
import { parseRange, contentDisposition } from '../../domain/content/service';
import { PermanentContentError } from '../../lib/content/errors';
import { csvCellsAtLeast, extractText, htmlToText, jsonValuesAtLeast, MAX_STRUCTURED_VALUES, structuredData, textStats, xmlValuesAtLeast } from '../../lib/content/extractors';
import { mediaTypeOf, sniffMimeType } from '../../lib/content/mediaTypes';
import { createEmbeddingProvider, guardedTransport, lexicalHashEmbedding, resolveEmbeddingSpec } from '../../lib/embeddings';
import { createSsrfGuard } from '../../lib/net/ssrfGuard';
import { tableNameFor } from '../../lib/vectors';

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

describe('lexical-hash embedder', () => {
  test('deterministic, 384 dimensions, unit length', () => {
    const a = lexicalHashEmbedding('Penguins live in Antarctica');
    expect(a).toHaveLength(384);
    expect(a).toEqual(lexicalHashEmbedding('Penguins live in Antarctica'));
    expect(Math.sqrt(cosine(a, a))).toBeCloseTo(1, 6);
  });

  test('shared vocabulary and inflections score higher than unrelated text', () => {
    const query = lexicalHashEmbedding('penguin colony');
    const related = lexicalHashEmbedding('Penguins gather in colonies on the ice');
    const unrelated = lexicalHashEmbedding('Compound interest on a savings account');
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated));
    expect(cosine(lexicalHashEmbedding("sourdough starter"), lexicalHashEmbedding("Sourdough bread needs a lively starter"))).toBeGreaterThan(0.3);
  });

  test('empty or stop-word-only text gives a zero vector, not NaN', () => {
    expect(lexicalHashEmbedding('the and of').every((v) => v === 0)).toBe(true);
  });
});

describe('embedding providers', () => {
  test('resolution: organization integration wins, disabled or malformed falls back to global', () => {
    const global = { provider: 'lexical' as const };
    const org = { integration: { thirdParty: { embeddings: { config: { provider: 'cohere', model: 'embed-x', dimensions: '1024' }, secrets: { apiKey: 'k' } } } } };
    expect(resolveEmbeddingSpec(global, org, (s) => String(s))).toEqual({ provider: 'cohere', model: 'embed-x', dimensions: 1024, apiKey: 'k' });
    const disabled = { integration: { thirdParty: { embeddings: { enabled: false, config: { provider: 'openai' } } } } };
    expect(resolveEmbeddingSpec(global, disabled)).toBe(global);
    expect(resolveEmbeddingSpec(global, { integration: { thirdParty: { embeddings: { config: { provider: 'x' } } } } })).toBe(global);
    expect(resolveEmbeddingSpec(global, null)).toBe(global);
  });

  test('defaults: OpenAI 1536, Cohere 1024, lexical 384', () => {
    expect(createEmbeddingProvider({ provider: 'openai' }).dimensions).toBe(1536);
    expect(createEmbeddingProvider({ provider: 'cohere' }).dimensions).toBe(1024);
    expect(createEmbeddingProvider({ provider: 'lexical' }).model).toBe('lexical-hash-384-v2');
  });

  test('a Cohere-compatible endpoint (v2 answer shape) and a dimension mismatch', async () => {
    const requests: { input_type: string; texts: string[] }[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { input_type: string; texts: string[] };
        requests.push(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ embeddings: { float: body.texts.map((t) => lexicalHashEmbedding(t, 8)) } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const transport = guardedTransport(createSsrfGuard({ allow: ['127.0.0.1'] }));
      const provider = createEmbeddingProvider({ provider: 'cohere', baseUrl, model: 'c', dimensions: 8 }, transport);
      const [vector] = await provider.embed(['hello world'], 'query');
      expect(vector).toEqual(lexicalHashEmbedding('hello world', 8));
      expect(requests[0]!.input_type).toBe('search_query');
      const wrong = createEmbeddingProvider({ provider: 'cohere', baseUrl, model: 'c', dimensions: 16 }, transport);
      await expect(wrong.embed(['x'], 'document')).rejects.toThrow(/returned 8 dimensions, 16 declared/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('chunking', () => {
  test('chunks stay near the size, overlap, and cover the text', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} talks about topic ${i}.`).join(' ');
    const chunks = chunkText(text, 200, 40);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(260);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
    expect(chunks[chunks.length - 1]!.text).toContain('topic 39.');
    expect(chunkText('', 200, 40)).toEqual([]);
    expect(chunkText('short', 200, 40)).toEqual([{ index: 0, text: 'short' }]);
  });

  test('chunking stops at MAX_CHUNKS, whatever follows', () => {
    const paragraphs = Array.from({ length: MAX_CHUNKS + 500 }, (_, i) => `Paragraph ${i} of a long text.`);
    const chunks = chunkText(paragraphs.join('\n\n'), 40, 0);
    expect(chunks).toHaveLength(MAX_CHUNKS);
    expect(chunks[MAX_CHUNKS - 1]).toEqual({ index: MAX_CHUNKS - 1, text: `Paragraph ${MAX_CHUNKS - 1} of a long text.` });
    // One paragraph without a sentence mark: cut at spaces, and still capped.
    expect(chunkText('word '.repeat(100_000), 40, 0)).toHaveLength(MAX_CHUNKS);
  });
});

describe('MIME sniffing', () => {
  test.each([
    [Buffer.from('%PDF-1.7\n'), 'x.bin', null, 'application/pdf'],
    [Buffer.from('{"a": 1}'), 'x', null, 'application/json'],
    [Buffer.from('a,b\n1,2\n3,4\n'), 'x', null, 'text/csv'],
    [Buffer.from('<?xml version="1.0"?><a/>'), 'x', null, 'application/xml'],
    [Buffer.from('<!DOCTYPE html><html></html>'), 'x', null, 'text/html'],
    [Buffer.from('# Title'), 'readme.md', null, 'text/markdown'],
    [Buffer.from('hello'), 'x', 'image/png', 'text/plain'],
    [Buffer.from([0, 1, 2, 3, 255]), 'x.txt', 'text/plain', 'application/octet-stream'],
  ])('%#', async (bytes, filename, declared, expected) => {
    expect(await sniffMimeType(bytes, filename, declared)).toBe(expected);
  });

  test('media types', () => {
    expect(mediaTypeOf('text/csv')).toBe('structured');
    expect(mediaTypeOf('application/pdf')).toBe('document');
    expect(mediaTypeOf('video/mp4')).toBe('video');
    expect(mediaTypeOf('application/zip')).toBe('other');
  });
});

describe('download helpers', () => {
  test('ranges', () => {
    expect(parseRange('', 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-5', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });

  test('content disposition keeps non-ASCII names', () => {
    expect(contentDisposition('attachment', 'résumé "v2".pdf')).toBe(
      `attachment; filename="r_sum_ _v2_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.pdf`,
    );
  });

  test('vector table names', () => {
    expect(tableNameFor('text-embedding-3-small', 1536)).toBe('v_text_embedding_3_small_1536');
  });
});

describe('structured data: values counted before the memory is spent', () => {
  test('JSON values are counted exactly, whatever strings hold', () => {
    const cases = ['1', '[]', '[ ]', '[1]', '[1,2,3]', '{}', '{"a":1,"b":[1,2]}', '["a,b:[{", {"k]":"v\\"]"}]', '[[],[[]],{}]', '"x"'];
    const count = (v: unknown): number =>
      Array.isArray(v) ? 1 + v.reduce((sum: number, x) => sum + count(x), 0) : v && typeof v === 'object' ? 1 + Object.values(v).reduce((sum: number, x) => sum + count(x), 0) : 1;
    for (const text of cases) expect([text, jsonValuesAtLeast(text, 100)]).toEqual([text, count(JSON.parse(text))]);
    expect(jsonValuesAtLeast(`[${'0,'.repeat(1000)}0]`, 10)).toBe(11); // stops one past the limit
  });

  test.each([
    ['text/csv', (n: number) => `h,i${'\na,b'.repeat(n / 2 - 1)}`], // n cells, the header's included
    ['application/json', (n: number) => `[${'{},'.repeat(n - 2)}{}]`],
    ['application/xml', (n: number) => `<r>${'<a/>'.repeat(n - 1)}</r>`],
  ])('%s: up to the limit parses, one more is refused as TOO_MANY_VALUES', (mime, file) => {
    expect(() => structuredData(Buffer.from(file(MAX_STRUCTURED_VALUES)), mime)).not.toThrow();
    const refused = (() => {
      try {
        structuredData(Buffer.from(file(MAX_STRUCTURED_VALUES + 2)), mime);
        return null;
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(PermanentContentError);
    expect(refused).toMatchObject({ code: 'TOO_MANY_VALUES', message: expect.stringContaining('more than 1,000,000 values') });
  });
});

describe('text from structured data stays bounded and never overflows the stack', () => {
  test('CSV cells are counted outside quotes, before csv-parse builds a record', () => {
    expect(csvCellsAtLeast('a,b\n"c,d\ne",f', 100)).toBe(4);
    expect(csvCellsAtLeast(',,,,,,', 3)).toBe(4); // stops one past the limit
    // One line of 2,000,000 commas: refused before parsing (csv-parse would build the whole record first).
    expect(() => structuredData(Buffer.from(`h\n${','.repeat(2_000_000)}`), 'text/csv')).toThrow(/CSV: more than 1,000,000 values/);
  });

  test('column names repeated on every row: refused past the text limit, as TOO_MUCH_TEXT', async () => {
    const wide = 'x'.repeat(100_000);
    const csv = Buffer.from(`${wide}1,${wide}2\n${'a,b\n'.repeat(200)}`); // 40 MB of text from a 200 kB file
    await expect(extractText(csv, 'text/csv')).rejects.toMatchObject({ code: 'TOO_MUCH_TEXT', message: expect.stringMatching(/^CSV: its text would pass/) });
  });

  test('JSON nested 400,000 deep is flattened without recursion; unbalanced braces are refused at once', async () => {
    const deep = `${'['.repeat(400_000)}1${']'.repeat(400_000)}`;
    const { text } = await extractText(Buffer.from(deep), 'application/json');
    expect(text).toBe(`${'[0]'.repeat(400_000)}: 1`);
    expect(jsonValuesAtLeast('{'.repeat(5_000_000), MAX_STRUCTURED_VALUES)).toBe(MAX_STRUCTURED_VALUES + 1);
  });

  test('XML elements and attributes are counted; `=` in text and in attribute values is not', () => {
    expect(xmlValuesAtLeast('<?xml version="1.0"?><r a="x=y" b=\'1\'><!-- = --><c>1 = 1 > 0</c></r>', 100)).toBe(4);
    expect(xmlValuesAtLeast(`<r>${'a=b '.repeat(10)}</r>`, 100)).toBe(1);
  });

  test('words and lines are counted without arrays of them', () => {
    expect(textStats(' one two\tthree\n\nfour\u00a0five ')).toEqual({ chars: 26, words: 5, lines: 3 });
    expect(textStats('')).toEqual({ chars: 0, words: 0, lines: 1 });
  });
});

describe('HTML to text', () => {
  test('drops tags, hidden elements and comments; block ends make lines; entities decode', () => {
    const html =
      '<!doctype html><html><head><style>p { color: red }</style><script>var x = "</p>"</script></head><body>' +
      '<h1>Herons</h1><p>Fish &amp; chips &#x2014; &#233;t&eacute;</p><!-- a <p>comment</p> -->' +
      '<div>one<br>two<BR/>three</div><SCRIPT type="x">hidden()</SCRIPT ><template><p>no</p></template>' +
      '<p>  spaced\r\n\r\n   out  </p>a <> b &lt;c&gt; <unclosed</body></html> 1 < 2';
    // `<unclosed</body>` is one tag up to the next `>`, as in a browser; a `<` that no `>` follows is text.
    expect(htmlToText(html)).toBe('Herons\nFish & chips — ét&eacute;\none\ntwo\nthree\nspaced\nout\na <> b <c> 1 < 2');
  });

  test('an unclosed hidden element drops only its tag; an unclosed comment hides the rest', () => {
    expect(htmlToText('<p>a</p><script>b<p>c</p>')).toBe('a\nb c');
    expect(htmlToText('<p>a</p><!-- b <p>c</p>')).toBe('a');
    expect(htmlToText('before<!-->after<!--->end')).toBe('before after end'); // comments that close themselves
  });

  // Each took minutes with the regular expressions this scanner replaced (quadratic in the page); Jest's 60 s
  // timeout fails them there. No time is asserted: they finish, with the expected text.
  const tags = 'x<a '.repeat(250_000);
  const carriageReturns = `a${'\r'.repeat(400_000)}b`;
  test.each([
    ['unclosed comments', '<!--'.repeat(250_000), ''],
    ['unclosed tags', tags, tags.trimEnd()],
    ['unclosed scripts', '<script>'.repeat(125_000), ''],
    ['a run of carriage returns', carriageReturns, carriageReturns],
  ])('%s (~1 MB) take one pass', (_name, html, expected) => {
    expect(htmlToText(html)).toBe(expected);
  });
});
