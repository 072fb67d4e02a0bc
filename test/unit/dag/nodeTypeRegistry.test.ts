import { NODE_TYPES } from '../../../lib/dag/model';
import { NODE_CONFIG_SCHEMAS } from '../../../lib/dag/nodeConfig';
import { NODE_TYPE_SPECS } from '../../../lib/dag/nodeTypes';
import { compileDocument } from '../../../lib/dag/document';
import { nodeDocSchema } from '../../../domain/workflows/documentation';

/**
 * The registries keyed by node type (docs/conventions.md#a-new-node-type) hold exactly the types of NODE_TYPES; the
 * compiler checks their shape, this checks that nothing is listed twice or under a name that is not a type.
 */
describe('node-type registry', () => {
  const types = [...NODE_TYPES].sort();

  test('every registry has an entry for each node type and no other', () => {
    expect(Object.keys(NODE_TYPE_SPECS).sort()).toEqual(types);
    expect(Object.keys(NODE_CONFIG_SCHEMAS).sort()).toEqual(types);
  });

  test('the OpenAPI node schema offers one shape per type, with its entry\'s id', () => {
    const options = nodeDocSchema.options.map((option) => option.shape.type.value);
    expect([...options].sort()).toEqual(types);
    expect(new Set(Object.values(NODE_TYPE_SPECS).map((spec) => spec.docs.id)).size).toBe(types.length);
  });

  test('document keys and aliases come from the entries: a snake_case alias compiles to the model key', () => {
    for (const spec of Object.values(NODE_TYPE_SPECS)) {
      for (const [alias, key] of Object.entries(spec.documentAliases ?? {})) {
        expect(spec.documentKeys).toContain(alias);
        expect(spec.documentKeys).toContain(key);
      }
    }
    const compiled = compileDocument({
      name: 'aliases',
      nodes: [
        { id: 'check', type: 'condition', expression: 'true', true_branch: 'yes' },
        { id: 'yes', type: 'loop', items: '${params.list}', max_items: 5, template: { type: 'tool', config: { tool: 'echo' } } },
      ],
    });
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    const nodes = compiled.value.dag.nodes as { id: string; config: Record<string, unknown> }[];
    expect(nodes.find((n) => n.id === 'check')!.config).toMatchObject({ trueBranch: 'yes' });
    expect(nodes.find((n) => n.id === 'yes')!.config).toMatchObject({ maxItems: 5 });
  });
});
