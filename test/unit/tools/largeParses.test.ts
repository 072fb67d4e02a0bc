import csvParse from '../../../activities/tools/csv_parse';
import xmlParse from '../../../activities/tools/xml_parse';
import { parseForTool } from '../../../activities/tools/support/parsing';
import type { ToolContext } from '../../../activities/tools/types';
import { closeSandbox, INLINE_PARSE_CHARS } from '../../../lib/expressions/sandbox';
import { SerializedJson } from '../../../lib/serializedJson';

/**
 * Texts past INLINE_PARSE_CHARS are parsed in the expression sandbox (off the worker's event loop): the same results
 * and the same failures as in place (real sandbox processes).
 */
afterAll(() => closeSandbox());

const ctx = { attempt: 1, organizationId: 'o', runId: 'r', nodeId: 'n', idempotencyKey: 'r:n', heartbeat: () => undefined, signal: new AbortController().signal } as unknown as ToolContext;

const items = (n: number) => Array.from({ length: n }, (_, i) => `<i id="${i}">v${i}</i>`).join('');

test('a large XML text parses off the event loop to what a small one gives in place', async () => {
  const large = `<r>${items(8000)}</r>`;
  expect(large.length).toBeGreaterThan(INLINE_PARSE_CHARS);
  const serialized = await xmlParse.execute({ text: large, always_array: ['i'] }, ctx);
  // Large outputs come back serialized, for the worker to store without parsing them on its loop.
  expect(serialized).toBeInstanceOf(SerializedJson);
  expect((serialized as SerializedJson).keys).toEqual(['result']);
  const out = (serialized as SerializedJson).parse() as { result: { r: { i: unknown[] } } };
  expect(out.result.r.i).toHaveLength(8000);
  expect(out.result.r.i[7999]).toEqual({ '#text': 'v7999', '@_id': '7999' });
  const small = (await xmlParse.execute({ text: `<r>${items(2)}</r>`, always_array: ['i'] }, ctx)) as { result: { r: { i: unknown[] } } };
  expect(small.result.r.i[1]).toEqual({ '#text': 'v1', '@_id': '1' });
});

test('a large text keeps the failures of a small one: INVALID_XML, DOCTYPE, INVALID_CSV, TOO_MANY_ROWS', async () => {
  const padding = 'x'.repeat(INLINE_PARSE_CHARS);
  await expect(xmlParse.execute({ text: `<r>${padding}<a></r>` }, ctx)).rejects.toMatchObject({ name: 'NonRetryableToolError', code: 'INVALID_XML' });
  await expect(xmlParse.execute({ text: `<!DOCTYPE r><r>${padding}</r>` }, ctx)).rejects.toMatchObject({ code: 'INVALID_XML' });
  await expect(csvParse.execute({ text: `a,b\n1,2,3\n${padding}` }, ctx)).rejects.toMatchObject({ code: 'INVALID_CSV' });
  const rows = Array.from({ length: 20_000 }, (_, i) => `${i},${i * 2}`).join('\n');
  await expect(csvParse.execute({ text: `a,b\n${rows}`, max_rows: 100 }, ctx)).rejects.toMatchObject({ code: 'TOO_MANY_ROWS' });
  const parsed = await csvParse.execute({ text: `a,b\n${rows}`, max_rows: 20_000 }, ctx);
  expect(parsed).toBeInstanceOf(SerializedJson);
  expect((parsed as SerializedJson).keys).toEqual(['rows', 'count', 'columns']);
  expect((parsed as SerializedJson).parse()).toMatchObject({ count: 20_000, columns: ['a', 'b'] });
});

test('large JSON parses off the event loop into the shape the tool answers, with the failures of a small one', async () => {
  const doc = { items: Array.from({ length: 6000 }, (_, i) => ({ id: i, name: `n${i}` })) };
  const text = Buffer.from(JSON.stringify(doc));
  expect(text.length).toBeGreaterThan(INLINE_PARSE_CHARS);
  const shape = { wrap: 'body', around: { status: 200, url: 'https://example.test/' } };
  const serialized = await parseForTool({ format: 'json', text, options: {} }, 'o', shape);
  expect(serialized).toBeInstanceOf(SerializedJson);
  expect((serialized as SerializedJson).keys).toEqual(['status', 'url', 'body']);
  expect((serialized as SerializedJson).parse()).toEqual({ status: 200, url: 'https://example.test/', body: doc });
  expect(await parseForTool({ format: 'json', text: '{"a":[1,2]}', options: {} }, 'o', shape)).toEqual({ ...shape.around, body: { a: [1, 2] } });

  await expect(parseForTool({ format: 'json', text: Buffer.concat([text, Buffer.from(',')]), options: {} }, 'o', shape)).rejects.toMatchObject({
    name: 'NonRetryableToolError',
    code: 'INVALID_JSON',
  });
  await expect(parseForTool({ format: 'json', text: '{"a":', options: {} }, 'o', shape)).rejects.toMatchObject({ code: 'INVALID_JSON' });
  // Nesting JSON.parse takes and JSON.stringify cannot store: refused, not retried.
  const deep = Buffer.from(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
  await expect(parseForTool({ format: 'json', text: deep, options: {} }, 'o', shape)).rejects.toMatchObject({ code: 'TOO_DEEP' });
});
