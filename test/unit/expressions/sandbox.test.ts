import { DEFAULT_JSONATA_LIMITS, ExpressionError } from '../../../lib/expressions';
import { internalFailure } from '../../../lib/expressions/errors';
import { closeSandbox, evaluateCel, evaluateJsonata, regexMatches, renderTemplates } from '../../../lib/expressions/sandbox';
import { contextFor } from '../../../lib/expressions/sandbox/prune';

/**
 * The expression sandbox end to end (real child processes): engines' limits give clear codes, a runaway evaluation
 * is stopped at its deadline and the next one runs in a fresh process, regexes run on RE2 in linear time. No timed
 * assertions: a stopped evaluation is told by its code, not by how long it took.
 */
afterAll(() => closeSandbox());

/** Engine internals that must never reach a caller. */
const INTERNALS = /Maximum call stack|RangeError|TypeError|\bat .*\(.*:\d+:\d+\)|node_modules|\.js:\d+/;

async function failure(promise: Promise<unknown>): Promise<ExpressionError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExpressionError);
  expect((err as ExpressionError).message).not.toMatch(INTERNALS);
  return err as ExpressionError;
}

describe('CEL in the sandbox', () => {
  test('evaluates conditions and renders templates', async () => {
    const context = { params: { amount: 150 }, nodes: { f: { count: 3, body: 'x'.repeat(1000) } }, f: { count: 3 } };
    expect(await evaluateCel('params.amount > 100 && nodes.f.count == 3', context)).toBe(true);
    expect(await renderTemplates({ a: '${params.amount + 1}', b: 'n=${f.count}', c: [1, 'plain'] }, context)).toEqual({
      a: 151,
      b: 'n=3',
      c: [1, 'plain'],
    });
    expect(await renderTemplates({ none: 'no templates here' }, context)).toEqual({ none: 'no templates here' });
  });

  test('a missing key and an invalid expression keep their codes', async () => {
    expect((await failure(evaluateCel('params.nope', { params: {} }))).code).toBe('EXPRESSION_FAILED');
    expect((await failure(evaluateCel('a.constructor', { a: {} }))).code).toBe('EXPRESSION_INVALID');
  });

  test('a runaway comprehension is stopped at the deadline, and the next evaluation still runs', async () => {
    const xs = Array.from({ length: 5000 }, (_, i) => i);
    const stopped = await failure(evaluateCel('xs.map(a, xs.map(b, a + b)).size()', { xs }, { timeoutMs: 200 }));
    expect(stopped.code).toBe('EXPRESSION_TIMEOUT');
    expect(stopped.message).toBe('expression ran longer than 200 ms and was stopped');
    expect(await evaluateCel('size(xs)', { xs })).toBe(5000);
  });

  test('only the referenced part of the context is sent to the sandbox', () => {
    const context = { params: { a: 1, b: 2 }, nodes: { big: { body: 'x'.repeat(10), status: 200 }, other: { v: 1 } }, big: { status: 200 } };
    expect(contextFor(['nodes.big.status > 100 && params.a == 1'], context)).toEqual({ params: { a: 1 }, nodes: { big: { status: 200 } } });
    // dynamic keys and whole references keep the whole value; macro variables are not context names
    expect(contextFor(['nodes[k].v', 'params.map(x, x)'], { ...context, k: 'other' })).toEqual({
      nodes: context.nodes,
      k: 'other',
      params: context.params,
    });
    // a macro variable named like a context root: the context is kept whole
    expect(contextFor(['[1].map(params, params)'], context)).toBe(context);
  });
});

describe('JSONata in the sandbox', () => {
  test('evaluates with bindings; sequences become plain arrays', async () => {
    expect(await evaluateJsonata('$sum(items.price) * $rate', { items: [{ price: 2 }, { price: 3 }] }, { rate: 2 })).toBe(10);
    expect(await evaluateJsonata('a.b', { a: [{ b: 1 }, { b: 2 }] })).toEqual([1, 2]);
    expect(await evaluateJsonata('missing', { a: 1 })).toBeNull();
  });

  test('a compiled expression is reused without carrying anything from one evaluation to the next', async () => {
    const text = '($total := $sum(items) + $extra; $total)';
    expect(await evaluateJsonata(text, { items: [1, 2] }, { extra: 10 })).toBe(13);
    expect(await evaluateJsonata(text, { items: [5] }, { extra: 0 })).toBe(5);
    expect(await evaluateJsonata('$total', {})).toBeNull(); // an assignment stays in its evaluation
    // the same text under other limits is compiled with those limits
    expect((await failure(evaluateJsonata('[1..200]', {}, {}, { ...DEFAULT_JSONATA_LIMITS, maxSequence: 100 }))).code).toBe('EXPRESSION_TOO_COMPLEX');
    expect(await evaluateJsonata('$count([1..200])', {})).toBe(200);
    expect(await evaluateJsonata('[1..200]', {})).toHaveLength(200);
  });

  test('a syntax error is EXPRESSION_INVALID, a type error EXPRESSION_FAILED', async () => {
    expect((await failure(evaluateJsonata('$sum(', {}))).code).toBe('EXPRESSION_INVALID');
    expect((await failure(evaluateJsonata('"a" + 1', {}))).code).toBe('EXPRESSION_FAILED');
  });

  test('a never-ending tail recursion is stopped at the deadline', async () => {
    const limits = { ...DEFAULT_JSONATA_LIMITS, timeoutMs: 200 };
    const err = await failure(evaluateJsonata('($f := function($x){ $f($x) }; $f(1))', {}, {}, limits));
    expect(err.code).toBe('EXPRESSION_TIMEOUT');
  });

  test("one long step, which JSONata's own checks cannot see, is stopped by the sandbox's deadline", async () => {
    // $pad builds its string in one step; JSONata checks its deadline only between steps.
    const limits = { ...DEFAULT_JSONATA_LIMITS, timeoutMs: 100 };
    const err = await failure(evaluateJsonata('$length($pad("", 100000000))', {}, {}, limits));
    expect(err).toMatchObject({ code: 'EXPRESSION_TIMEOUT', message: 'expression ran longer than 350 ms and was stopped' });
    expect(await evaluateJsonata('1 + 1', {})).toBe(2);
  });

  test('deep recursion and huge sequences are EXPRESSION_TOO_COMPLEX with a clear message', async () => {
    const deep = await failure(evaluateJsonata('($f := function($x){ 1 + $f($x) }; $f(1))', {}));
    expect(deep).toMatchObject({ code: 'EXPRESSION_TOO_COMPLEX', message: 'the expression recursed too deeply (nested function calls)' });
    expect((await failure(evaluateJsonata('[1..10000000]', {}))).code).toBe('EXPRESSION_TOO_COMPLEX');
    expect((await failure(evaluateJsonata('[1..100000000]', {}))).code).toBe('EXPRESSION_TOO_COMPLEX');
    const nested = '('.repeat(3000) + '1' + ')'.repeat(3000);
    expect((await failure(evaluateJsonata(nested, {}))).code).toBe('EXPRESSION_TOO_COMPLEX');
  });

  test('regex literals run on RE2: a catastrophic pattern answers at once, backreferences do not compile', async () => {
    expect(await evaluateJsonata('$match(s, /(a+)+$/)', { s: `${'a'.repeat(100_000)}b` })).toBeNull();
    expect(await evaluateJsonata('$contains(s, /b+/)', { s: 'abbc' })).toBe(true);
    expect((await failure(evaluateJsonata('$match(s, /(a)\\1/)', { s: 'aa' }))).code).toBe('INVALID_REGEX');
  });

  test('prototype pollution through $merge is not possible', async () => {
    await evaluateJsonata('$merge([{}, {"__proto__": {"polluted": true}}])', {});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('regular expressions over text', () => {
  test('matches with groups, capped', async () => {
    const result = await regexMatches('Call 555-1234 or 555-9876.', '(\\d{3})-(\\d{4})', '', 10);
    expect(result).toEqual({
      matches: [
        { match: '555-1234', index: 5, groups: ['555', '1234'] },
        { match: '555-9876', index: 17, groups: ['555', '9876'] },
      ],
      truncated: false,
    });
    expect((await regexMatches('aaaa', 'a', 'i', 2)).truncated).toBe(true);
  });

  test('an exponential-backtracking pattern runs in linear time on RE2 (a backtracking engine would not finish)', async () => {
    const text = `${'a'.repeat(200_000)}!`;
    expect(await regexMatches(text, '^(a+)+$', '', 5)).toEqual({ matches: [], truncated: false });
    expect(await regexMatches(text, '(a|aa)*b', '', 5)).toEqual({ matches: [], truncated: false });
  });

  test('refused patterns are INVALID_REGEX', async () => {
    expect((await failure(regexMatches('aa', '(a)\\1', '', 5))).code).toBe('INVALID_REGEX');
    expect((await failure(regexMatches('aa', '(?=a)a', '', 5))).code).toBe('INVALID_REGEX');
    expect((await failure(regexMatches('aa', '(', '', 5))).code).toBe('INVALID_REGEX');
    expect((await failure(regexMatches('aa', 'a'.repeat(1001), '', 5))).code).toBe('INVALID_REGEX');
    expect((await failure(regexMatches('aa', 'a', 'g', 5))).code).toBe('INVALID_REGEX');
  });
});

describe('engine internals are never echoed', () => {
  test('a stack overflow and other JavaScript errors become clear codes', () => {
    expect(internalFailure(new RangeError('Maximum call stack size exceeded'))).toMatchObject({
      code: 'EXPRESSION_TOO_COMPLEX',
      message: 'the expression recursed too deeply',
    });
    expect(internalFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toMatchObject({
      code: 'EXPRESSION_FAILED',
      message: 'the expression could not be evaluated on this data',
    });
  });
});

describe('what reaches the sandbox process', () => {
  test('data that is not plain JSON is refused with a clear error before it is sent; the next task runs', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const err = await failure(evaluateCel('size(x) == 2', { x: cyclic })); // the whole of x is sent
    expect(err).toMatchObject({ code: 'EXPRESSION_FAILED', message: 'the expression data cannot be passed to the sandbox (not plain JSON)' });
    expect(await evaluateCel('x.a == 1', { x: { a: 1 } })).toBe(true);
  });
});
