import { pathValue, takeOutPathTemplates } from '../../activities/runs/pathTemplates';
import { renderValue } from '../../activities/runs/resolve';
import { scope } from '../../activities/runs/expressions';
import { closeSandbox } from '../../lib/expressions/sandbox';

/** Path templates are read like bindings (activities/runs/pathTemplates.ts), past the sandbox's 1 MB result cap. */

afterAll(() => closeSandbox());

const big = 'x'.repeat(2 * 1024 * 1024);
const context = scope({ n: 2, opt: null }, { a: { result: big, list: [1, 2], nested: { deep: { v: 'ok' } } }, t: { result: '${params.n}' } }, { item: { id: 7 } });

test('a whole-string path reads the value; anything else is not a path', () => {
  expect(pathValue('${nodes.a.result}', context)).toEqual({ value: big });
  expect(pathValue('${ a.nested.deep.v }', context)).toEqual({ value: 'ok' });
  expect(pathValue('${params.opt}', context)).toEqual({ value: null });
  expect(pathValue('${item.id}', context)).toEqual({ value: 7 });
  for (const text of ['${a.result} ', 'x ${a.result}', '${a.result + 1}', '${a.missing}', '${a}', '${a.__proto__.x}', '${a.constructor.name}', '${a.list.length}']) {
    expect(pathValue(text, context)).toBeUndefined();
  }
});

test('a 2 MB output through a template renders like a binding; the rest still goes through the sandbox', async () => {
  const rendered = (await renderValue({ whole: '${nodes.a.result}', text: 'n=${params.n}', list: ['${a.list}', 3] }, context)) as Record<string, unknown>;
  expect((rendered.whole as string).length).toBe(big.length);
  expect(rendered.text).toBe('n=2');
  expect(rendered.list).toEqual([[1, 2], 3]);
  expect(await renderValue('${nodes.a.result}', context)).toBe(big);
});

test('text inside a value read by path is never taken for a template', async () => {
  expect(await renderValue({ v: '${t.result}' }, context)).toEqual({ v: '${params.n}' });
  const { rest } = takeOutPathTemplates({ v: '${t.result}', w: 'keep' }, context);
  expect(rest).toEqual({ v: null, w: 'keep' });
});

test('a computed value over 1 MB is still the sandbox\'s to refuse', async () => {
  await expect(renderValue('${a.result + "y"}', context)).rejects.toMatchObject({ code: 'EXPRESSION_LIMIT' });
});
