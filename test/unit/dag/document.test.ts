import { parse as parseYaml } from 'yaml';
import { compileDocument, isDefinitionDocument } from '../../../lib/dag/document';
import { validateDefinition } from '../../../lib/dag/validate';
import { validationEnv } from '../../../domain/workflows/validationEnv';

const yamlDoc = `
name: Order triage
description: Routes big orders
version: "1.2.0"
metadata:
  tags: [orders]
  category: sales
parameters:
  - name: threshold
    type: number
    default: 100
  - name: orders
    type: array
    required: true
nodes:
  - id: total
    type: tool
    tool: json_transform
    inputs:
      expression: "$sum(price)"
      data: "\${params.orders}"
  - id: big
    type: condition
    expression: "total.result > params.threshold"
    true_branch: notify
    false_branch: archive
    depends_on: [total]
  - id: notify
    type: tool
    tool: json_transform
    config: { expression: "'big'" }
  - id: archive
    type: tool
    tool: json_transform
    inputs:
      expression: "'small'"
      data: { from: total.result }
  - id: each
    type: loop
    items: params.orders
    iterator: order
    template:
      type: tool
      config: { tool: json_transform, config: { expression: "price", data: "\${order}" } }
    depends_on: [notify, archive]
error_handling:
  default_strategy: retry
  retry_config: { max_attempts: 3, backoff: exponential, initial_delay: 1000 }
  node_overrides:
    notify: { strategy: fallback, handler: archive }
`;

describe('definition document', () => {
  test('YAML compiles to the model and validates', () => {
    const doc = parseYaml(yamlDoc) as unknown;
    expect(isDefinitionDocument(doc)).toBe(true);
    expect(isDefinitionDocument({ name: 'x', dag: { nodes: [] } })).toBe(false);
    const compiled = compileDocument(doc);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    expect(compiled.value.metadata).toEqual({ tags: ['orders'], category: 'sales', definitionVersion: '1.2.0' });
    expect(compiled.value.dag.nodes[0]).toEqual({
      id: 'total',
      type: 'tool',
      config: { tool: 'json_transform', config: { expression: '$sum(price)', data: '${params.orders}' } },
    });
    expect(compiled.value.dag.nodes[1]).toEqual({
      id: 'big',
      type: 'condition',
      config: { expression: 'total.result > params.threshold', trueBranch: 'notify', falseBranch: 'archive' },
    });
    expect(compiled.value.dag.nodes[3]).toMatchObject({
      config: { inputs: [{ name: 'data', from: 'total.result' }], config: { expression: "'small'" } },
    });
    expect(compiled.value.dag.edges).toEqual([
      { from: 'total', to: 'big' },
      { from: 'notify', to: 'each' },
      { from: 'archive', to: 'each' },
    ]);
    const result = validateDefinition(compiled.value, validationEnv, { dagPath: '' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.definition.dag.entryPoints).toEqual(['total']);
    expect(result.definition.dag.exitPoints).toEqual(['each']);
    expect(result.definition.errorHandling.retry_config).toEqual({ max_attempts: 3, backoff: 'exponential', initial_delay: 1000 });
  });

  test("a tool node's rate_limit may be written at its top level", () => {
    const r = compileDocument({ name: 'x', nodes: [{ id: 'call', type: 'tool', tool: 'http_request', config: { url: 'https://a.example' }, rate_limit: { requests: 10, per: '1s' } }] });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.value.dag.nodes[0]).toEqual({ id: 'call', type: 'tool', config: { tool: 'http_request', config: { url: 'https://a.example' }, rate_limit: { requests: 10, per: '1s' } } });
  });

  test('shape problems name the field', () => {
    const r = compileDocument({ name: 'x', nodes: [{ id: 'a', type: 'condition', expression: 'true', colour: 'red' }, { type: 'tool' }], extra: 1 });
    expect(!r.ok && r.problems.map((p) => p.path)).toEqual(['extra']);
    const r2 = compileDocument({ name: 'x', nodes: [{ id: 'a', type: 'condition', expression: 'true', colour: 'red' }, { type: 'tool' }] });
    expect(!r2.ok && r2.problems).toEqual([
      { path: 'nodes[0].colour', problem: 'unknown field for a condition node' },
      { path: 'nodes[1].id', problem: expect.any(String) },
    ]);
  });

  test('semantic problems use document paths (no dag prefix)', () => {
    const compiled = compileDocument({ name: 'x', nodes: [{ id: 'a', type: 'tool', tool: 'nope' }] });
    if (!compiled.ok) throw new Error('should compile');
    const r = validateDefinition(compiled.value, validationEnv, { dagPath: '' });
    expect(!r.ok && r.problems).toEqual([{ path: 'nodes.a.config.tool', problem: 'unknown tool "nope"' }]);
  });
});
