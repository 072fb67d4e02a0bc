import { matchesType, parameterDeclProblems, resolveRunParameters } from '../../../lib/dag/parameters';

describe('parameters', () => {
  test('matchesType', () => {
    expect(matchesType('integer', 2)).toBe(true);
    expect(matchesType('integer', 2.5)).toBe(false);
    expect(matchesType('number', NaN)).toBe(false);
    expect(matchesType('object', [])).toBe(false);
    expect(matchesType('array', [])).toBe(true);
    expect(matchesType('any', null)).toBe(true);
  });

  test('declaration problems: type of default and enum, default in enum, duplicates, shape', () => {
    const { problems } = parameterDeclProblems([
      { name: 'a', type: 'integer', default: 'x' },
      { name: 'b', type: 'string', enum: ['x', 1] },
      { name: 'c', type: 'string', enum: ['x'], default: 'y' },
      { name: 'a', type: 'string' },
      { name: '1bad', type: 'date' },
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'parameters[0].default', problem: 'default "x" is not of type integer' },
        { path: 'parameters[1].enum[1]', problem: 'enum value 1 is not of type string' },
        { path: 'parameters[2].default', problem: 'default is not one of the enum values' },
        { path: 'parameters[3].name', problem: 'duplicate parameter "a"' },
      ]),
    );
    expect(problems.some((p) => p.path === 'parameters[4].name')).toBe(true);
    expect(problems.some((p) => p.path === 'parameters[4].type')).toBe(true);
  });

  test('run parameters: defaults, required, types, enums, unknown names', () => {
    const { decls } = parameterDeclProblems([
      { name: 'n', type: 'integer', default: 3 },
      { name: 's', type: 'string', required: true, enum: ['a', 'b'] },
      { name: 'o', type: 'object' },
    ]);
    expect(resolveRunParameters(decls, { s: 'a' })).toEqual({ ok: true, values: { n: 3, s: 'a' } });
    const bad = resolveRunParameters(decls, { n: 'x', s: 'c', zz: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problems).toEqual([
        { path: 'parameters.zz', problem: 'not a declared parameter' },
        { path: 'parameters.n', problem: 'must be of type integer' },
        { path: 'parameters.s', problem: 'must be one of "a", "b"' },
      ]);
    }
    const missing = resolveRunParameters(decls, {});
    expect(!missing.ok && missing.problems).toEqual([{ path: 'parameters.s', problem: 'required' }]);
  });
});
