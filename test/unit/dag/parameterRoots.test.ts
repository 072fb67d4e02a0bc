import { isParameterRoot, PARAMETER_ROOTS, RESERVED_ROOTS } from '../../../lib/dag/parameterRoots';
import { parseReference, RESERVED_NAMES } from '../../../lib/dag/references';
import { expressionContext, findReferences, RESERVED_CONTEXT_NAMES } from '../../../lib/expressions';
import { readReference } from '../../../activities/runs/resolve';
import { scope } from '../../../activities/runs/expressions';
import { mentionedParams } from '../../../workflows/runs/graph';

/**
 * Save-time checks, run-time resolution and the interpreter's reads must agree on which roots name parameters:
 * when they did not, `from: 'parameters.x'` was accepted at save and failed every run with MISSING_INPUT.
 */
describe('parameter roots', () => {
  test('params and its alias parameters', () => {
    expect([...PARAMETER_ROOTS]).toEqual(['params', 'parameters']);
    expect(isParameterRoot('params')).toBe(true);
    expect(isParameterRoot('parameters')).toBe(true);
    expect(isParameterRoot('nodes')).toBe(false);
    expect(isParameterRoot('param')).toBe(false);
  });

  test.each(PARAMETER_ROOTS)('%s.x names parameter x in validation, expressions, resolution and the interpreter', (root) => {
    expect(parseReference(`${root}.x`)).toEqual({ kind: 'param', name: 'x' });
    expect(findReferences({ url: `\${${root}.x}` })).toMatchObject([{ kind: 'param', name: 'x' }]);
    expect(expressionContext({ params: { x: 5 }, nodes: {} })[root]).toEqual({ x: 5 });
    expect(readReference(scope({ x: 5 }, { fetch: { body: 1 } }), `${root}.x`)).toBe(5);
    expect(mentionedParams({ inputs: [{ from: `${root}.x` }] })).toEqual(['x']);
  });

  test('any other root is a node output', () => {
    expect(parseReference('fetch.body')).toEqual({ kind: 'node', nodeId: 'fetch', output: 'body' });
    expect(readReference(scope({ x: 5 }, { fetch: { body: 1 } }), 'fetch.body')).toBe(1);
    expect(() => readReference(scope({}, {}), 'param.x')).toThrow('node param has no output in this run');
  });

  test('the reserved names are the parameter roots and nodes, for node ids and for expression contexts alike', () => {
    expect([...RESERVED_ROOTS].sort()).toEqual(['nodes', 'parameters', 'params']);
    expect(RESERVED_NAMES).toBe(RESERVED_ROOTS);
    expect(RESERVED_CONTEXT_NAMES).toBe(RESERVED_ROOTS);
  });
});
