import tool, { JSONATA_LIMITS, transform } from '../../../activities/tools/json_transform';
import { closeSandbox } from '../../../lib/expressions/sandbox';
import type { ToolContext } from '../../../activities/tools/types';
import type { JsonataLimits } from '../../../lib/expressions';
import { SerializedJson } from '../../../lib/serializedJson';

/** The transform's result (small results come back as values). */
const runJsonata = async (expression: string, data: unknown, bindings: Record<string, unknown> = {}, limits: JsonataLimits = JSONATA_LIMITS) =>
  ((await transform(expression, data, bindings, limits)) as { result: unknown }).result;

const ctx = {} as ToolContext;

afterAll(() => closeSandbox());

describe('json_transform', () => {
  test('evaluates JSONata over data with bindings', async () => {
    const out = await tool.execute(
      { expression: '$sum(items.price) * $rate', data: { items: [{ price: 2 }, { price: 3 }] }, bindings: { rate: 2 } },
      ctx,
    );
    expect(out).toEqual({ result: 10 });
  });

  test('no match gives null, sequences become plain arrays', async () => {
    expect(await runJsonata('missing', { a: 1 })).toBeNull();
    expect(await runJsonata('a.b', { a: [{ b: 1 }, { b: 2 }] })).toEqual([1, 2]);
  });

  test('syntax errors are non-retryable', async () => {
    await expect(runJsonata('(', {})).rejects.toMatchObject({ name: 'NonRetryableToolError', code: 'EXPRESSION_INVALID' });
  });

  test('an endless recursion is cut: by the stack limit, or at the deadline when it is a tail call', async () => {
    await expect(runJsonata('($f := function($x){ 1 + $f($x) }; $f(1))', {})).rejects.toMatchObject({
      name: 'NonRetryableToolError',
      code: 'EXPRESSION_TOO_COMPLEX',
    });
    const limits = { ...JSONATA_LIMITS, timeoutMs: 100 };
    await expect(runJsonata('($f := function($x){ $f($x) }; $f(1))', {}, {}, limits)).rejects.toMatchObject({
      code: 'EXPRESSION_TIMEOUT',
    });
  });

  test('a long loop is cut by the time box', async () => {
    const limits = { timeoutMs: 50, maxStack: 100_000, maxSequence: 10_000_000, maxExpressionLength: 10_000 };
    await expect(
      runJsonata('$count([1..1000000].($string($)))', {}, {}, limits),
    ).rejects.toMatchObject({ code: 'EXPRESSION_TIMEOUT' });
  });

  test('regexes run on RE2: a catastrophic pattern answers at once, backreferences are refused', async () => {
    expect(await runJsonata('$match(s, /(a+)+$/)', { s: `${'a'.repeat(100_000)}b` })).toBeNull();
    expect(await runJsonata('$contains(s, /b+/)', { s: 'abbc' })).toBe(true);
    await expect(runJsonata('$match(s, /(a)\\1/)', { s: 'aa' })).rejects.toMatchObject({ code: 'INVALID_REGEX' });
  });

  test('a large result comes back as the output JSON, never parsed here; a small one as the value', async () => {
    const large = await transform('[1..20000].{"n": $, "s": "sourdough"}', null);
    expect(large).toBeInstanceOf(SerializedJson);
    expect((large as SerializedJson).keys).toEqual(['result']);
    const parsed = (large as SerializedJson).parse() as { result: { n: number; s: string }[] };
    expect(parsed.result).toHaveLength(20_000);
    expect(parsed.result[19_999]).toEqual({ n: 20_000, s: 'sourdough' });
    expect(await transform('[1..3]', null)).toEqual({ result: [1, 2, 3] });
    expect(await transform('$pad("", 70000, "x")', null)).toBeInstanceOf(SerializedJson);
    expect(((await transform('$pad("", 70000, "x")', null)) as SerializedJson).parse()).toEqual({ result: 'x'.repeat(70_000) });
  });

  test('prototype pollution through $merge is not possible', async () => {
    await runJsonata('$merge([{}, {"__proto__": {"polluted": true}}])', {});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
