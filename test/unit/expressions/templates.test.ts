import {
  checkTemplates,
  expressionContext,
  findReferences,
  hasTemplates,
  parseTemplateString,
} from '../../../lib/expressions';
import { renderTemplates } from '../../../lib/expressions/templates';

describe('parseTemplateString', () => {
  test('splits text and expressions, honours braces in strings and maps, and $${ escapes', () => {
    expect(parseTemplateString('a ${x} b')).toEqual([{ text: 'a ' }, { expression: 'x' }, { text: ' b' }]);
    expect(parseTemplateString('${ {"k": "}"}.k }')).toEqual([{ expression: '{"k": "}"}.k' }]);
    expect(parseTemplateString('cost $${x}')).toEqual([{ text: 'cost ${x}' }]);
    expect(parseTemplateString('')).toEqual([{ text: '' }]);
    expect(() => parseTemplateString('a ${x')).toThrow(/unclosed/);
  });
});

describe('renderTemplates', () => {
  const context = expressionContext({
    params: { n: 2, name: 'Ann' },
    nodes: { fetch: { body: { items: [1, 2, 3] }, status: 200 } },
    locals: { item: { id: 7 } },
  });

  test('an exact template keeps the type; embedded ones stringify', () => {
    expect(renderTemplates('${nodes.fetch.body.items}', context)).toEqual([1, 2, 3]);
    expect(renderTemplates('${fetch.status}', context)).toBe(200);
    expect(renderTemplates('${params.n * 2}', context)).toBe(4);
    expect(renderTemplates('Hi ${params.name}, ${fetch.body}', context)).toBe('Hi Ann, {"items":[1,2,3]}');
    expect(renderTemplates('id=${item.id}', context)).toBe('id=7');
    expect(renderTemplates('${parameters.n}', context)).toBe(2);
  });

  test('renders deep over objects and arrays without touching other values', () => {
    const out = renderTemplates({ a: ['${params.n}', 1, true, null], b: { c: 'x${params.n}' } }, context);
    expect(out).toEqual({ a: [2, 1, true, null], b: { c: 'x2' } });
  });

  test('errors name the path', () => {
    expect(() => renderTemplates({ a: { b: '${params.missing}' } }, context)).toThrow(/^a\.b: /);
  });
});

describe('checkTemplates / findReferences / hasTemplates', () => {
  test('invalid templates are reported with their path', () => {
    const problems = checkTemplates({ url: '${a.constructor}', list: ['ok', '${(}'], bad: '${x' }, 'config');
    expect(problems.map((p) => p.path).sort()).toEqual(['config.bad', 'config.list[1]', 'config.url']);
  });

  test('references are classified', () => {
    const refs = findReferences(
      { a: '${params.x + nodes.f.out}', b: 'v=${fetch.body.y} ${items.map(i, i + item.n)}' },
      'config',
    );
    const simple = refs.map((r) =>
      r.kind === 'param' ? `param:${r.name}` : r.kind === 'node' ? `node:${r.nodeId}.${r.output}` : `name:${r.name}.${r.field}`,
    );
    expect(simple.sort()).toEqual(['name:fetch.body', 'name:item.n', 'name:items.null', 'node:f.out', 'param:x'].sort());
    expect(refs.find((r) => r.kind === 'param')?.path).toBe('config.a');
  });

  test('hasTemplates', () => {
    expect(hasTemplates({ a: ['x', { b: '${y}' }] })).toBe(true);
    expect(hasTemplates({ a: 'cost $${x}' })).toBe(false);
    expect(hasTemplates({ a: 'broken ${' })).toBe(true);
    expect(hasTemplates(42)).toBe(false);
  });
});

describe('hostile values', () => {
  const deep = (n: number): unknown => {
    let v: unknown = '${params.x}';
    for (let i = 0; i < n; i++) v = { a: v };
    return v;
  };

  test('10,000-deep values are a bounded error everywhere', () => {
    const value = deep(10_000);
    expect(checkTemplates(value, 'config')).toEqual([{ path: 'config', problem: 'value nested deeper than 64' }]);
    expect(hasTemplates(value)).toBe(true);
    expect(findReferences(value)).toEqual([]);
    expect(() => renderTemplates(value, expressionContext({ params: { x: 1 }, nodes: {} }))).toThrow(/nested deeper than 64/);
  });

  test('too many templates in one value', () => {
    const many = Array.from({ length: 600 }, () => '${params.x}');
    expect(checkTemplates(many).some((p) => /more than 500 templates/.test(p.problem))).toBe(true);
  });

  test('loop is a reserved word in CEL', () => {
    expect(checkTemplates('${loop.index}')[0]!.problem).toMatch(/Reserved identifier: loop/);
  });
});
