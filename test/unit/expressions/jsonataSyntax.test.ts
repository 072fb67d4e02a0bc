import { jsonataSyntaxProblem } from '../../../lib/expressions/jsonataSyntax';

test('valid JSONata passes; a syntax error names its position; nothing is evaluated', () => {
  expect(jsonataSyntaxProblem('$sum(items.price)')).toBeNull();
  expect(jsonataSyntaxProblem('{ "n": n + 1 }')).toBeNull();
  // An endless loop is a run-time matter: parsing does not run it.
  expect(jsonataSyntaxProblem('($f := function($x) { $f($x) }; $f(1))')).toBeNull();
  expect(jsonataSyntaxProblem('{ "a": $sum(price }')).toBe('invalid JSONata at character 19: Expected ")", got "}"');
  expect(jsonataSyntaxProblem('$x := 1; $x +')).toMatch(/^invalid JSONata at character \d+: Syntax error/);
});

test('regex literals must compile with RE2, as the sandbox runs them', () => {
  expect(jsonataSyntaxProblem('$match(s, /a+b/i)')).toBeNull();
  expect(jsonataSyntaxProblem('$match(s, /(a)\\1/)')).toMatch(/RE2/);
  expect(jsonataSyntaxProblem('$replace(s, /(?<=a)b/, "c")')).toMatch(/RE2/);
});

test('longer than the sandbox accepts', () => {
  expect(jsonataSyntaxProblem('1'.repeat(11), 10)).toBe('expression longer than 10 characters');
});
