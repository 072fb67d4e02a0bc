import { isRegexSafe, regexProblem } from '../../../lib/expressions/regexSafety';

describe('regexProblem', () => {
  test.each(['^[a-z]+$', 'abc', '\\d{3}-\\d{4}', '(foo|bar)?baz', '^(ab)+$', '[(+*)]+', 'a+?b', '(?:x)+'])(
    'accepts %s',
    (p) => expect(regexProblem(p)).toBeNull(),
  );

  test.each([
    ['(a+)+$', /nested quantifiers/],
    ['(a*)*', /nested quantifiers/],
    ['(a|a)*', /nested quantifiers/],
    ['(\\w+\\s?)+$', /nested quantifiers/],
    ['(a{1,5}){2,}', /nested quantifiers/],
    ['(a)\\1', /backreferences/],
    ['(?<n>a)\\k<n>', /backreferences/],
    ['(?=a)', /lookahead/],
    ['(?<!a)b', /lookahead/],
    ['a*a*a*a*b', /unbounded quantifiers/],
    ['x'.repeat(201), /longer than/],
    ['(', /invalid regular expression/],
  ])('refuses %s', (p, why) => {
    expect(regexProblem(p)).toMatch(why);
    expect(isRegexSafe(p)).toBe(false);
  });
});
