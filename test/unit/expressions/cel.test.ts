import { checkExpression, ExpressionError, nestingDepth } from '../../../lib/expressions';
import { evaluateExpression } from '../../../lib/expressions/cel';

describe('checkExpression', () => {
  test('accepts ordinary CEL', () => {
    for (const e of [
      'params.amount > 100',
      'nodes.fetch.status == 200 && size(nodes.fetch.items) > 0',
      'fetch.body.name.startsWith("a")',
      'params.tags.exists(t, t == "x")',
      'params.name.matches("^[a-z]+$")',
      'has(params.optional) ? params.optional : "none"',
    ]) {
      expect(checkExpression(e)).toEqual({ ok: true, problems: [] });
    }
  });

  test('refuses syntax errors with a readable message', () => {
    const r = checkExpression('params.a >');
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toMatch(/^invalid expression: /);
    expect(checkExpression('').problems).toEqual(['expression is empty']);
  });

  test.each([
    ['a.constructor', /constructor/],
    ['a["__proto__"]', /__proto__/],
    ['this.x', /this/],
    ['process.env', /process/],
    ['require("fs")', /require/],
    ['a.prototype.x', /prototype/],
  ])('refuses %s (reaches JavaScript)', (e, why) => {
    const r = checkExpression(e);
    expect(r.ok).toBe(false);
    expect(r.problems.join(' ')).toMatch(why);
  });

  test('refuses catastrophic and dynamic regexes', () => {
    expect(checkExpression('s.matches("(a+)+$")').problems[0]).toMatch(/nested quantifiers/);
    expect(checkExpression('s.matches(params.pattern)').problems[0]).toMatch(/string literal pattern/);
  });

  test('bounds length, depth, size and comprehension nesting', () => {
    expect(checkExpression('1 + '.repeat(2000) + '1').problems[0]).toMatch(/longer than 4000/);
    expect(checkExpression('('.repeat(40) + '1' + ')'.repeat(40)).problems[0]).toMatch(/nested deeper than 32/);
    expect(checkExpression('[' + '1,'.repeat(1500) + '1]').ok).toBe(false);
    expect(checkExpression('a.map(x, a.map(y, a.map(z, z)))').problems[0]).toMatch(/nest at most 2/);
    expect(checkExpression('a.map(x, a.map(y, y))').ok).toBe(true);
  });

  test('10,000-deep nesting is a bounded error, not a stack overflow', () => {
    const deep = '('.repeat(10_000) + '1' + ')'.repeat(10_000);
    expect(checkExpression(deep, { ...defaultsWithLength(100_000) }).problems[0]).toMatch(/nested deeper/);
    expect(checkExpression(deep).ok).toBe(false);
    expect(() => evaluateExpression(deep, {})).toThrow(ExpressionError);
    const deepList = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(checkExpression(deepList, defaultsWithLength(100_000)).ok).toBe(false);
  });

  test('nestingDepth ignores brackets inside strings', () => {
    expect(nestingDepth('"((((" + (a)')).toBe(1);
    expect(nestingDepth("'\\'(' + [[1]]")).toBe(2);
  });
});

function defaultsWithLength(maxLength: number) {
  return { maxLength, maxDepth: 32, maxAstNodes: 1000, maxComprehensionDepth: 2, timeoutMs: 1000, maxResultBytes: 1 << 20 };
}

describe('evaluateExpression', () => {
  const ctx = { params: { amount: 150, name: 'bob', ratio: 0.5, tags: ['a', 'b'] }, nodes: { f: { count: 3 } } };

  test('JSON numbers work with CEL ints and doubles; results are plain JSON', () => {
    expect(evaluateExpression('params.amount + 1', ctx)).toBe(151);
    expect(evaluateExpression('params.ratio * 2.0', ctx)).toBe(1);
    expect(evaluateExpression('params.amount > 100 && params.ratio < 1', ctx)).toBe(true);
    expect(evaluateExpression('{"n": nodes.f.count, "l": params.tags.map(t, t + "!")}', ctx)).toEqual({
      n: 3,
      l: ['a!', 'b!'],
    });
    expect(evaluateExpression('null', ctx)).toBeNull();
  });

  test('a missing key is EXPRESSION_FAILED', () => {
    expect(() => evaluateExpression('params.nope', ctx)).toThrow(expect.objectContaining({ code: 'EXPRESSION_FAILED' }));
  });

  test('an invalid expression is EXPRESSION_INVALID', () => {
    expect(() => evaluateExpression('a.constructor', ctx)).toThrow(expect.objectContaining({ code: 'EXPRESSION_INVALID' }));
  });

  test('results larger than the limit are refused', () => {
    const big = { s: 'x'.repeat(1000) };
    expect(() => evaluateExpression('[s, s, s]', big, { maxResultBytes: 2000 })).toThrow(
      expect.objectContaining({ code: 'EXPRESSION_LIMIT' }),
    );
  });

  test('no JavaScript is reachable at run time either', () => {
    expect(() => evaluateExpression('x[k]', { x: {}, k: 'constructor' })).toThrow(ExpressionError);
    expect(() => evaluateExpression('x[k]', { x: {}, k: '__proto__' })).toThrow(ExpressionError);
  });

  test('deeply nested data is refused, not a stack overflow', () => {
    let data: unknown = 1;
    for (let i = 0; i < 10_000; i++) data = [data];
    expect(() => evaluateExpression('size(d)', { d: data })).toThrow(expect.objectContaining({ code: 'EXPRESSION_LIMIT' }));
  });
});
