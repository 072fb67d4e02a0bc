import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDocument } from '../../scripts/generate-client';
import {
  cell,
  compactJson,
  DOC_OF_TAG,
  EXAMPLE_WIDTH,
  END_MARKER,
  endpointTables,
  renderSection,
  replaceMarkedSection,
  rolesInWords,
  START_MARKER,
  type EndpointTables,
} from '../../scripts/endpoint-tables';

/**
 * The endpoint tables of the domain docs (docs/*.md, between `<!-- endpoints:start -->` and `<!-- endpoints:end -->`)
 * are generated from the OpenAPI document by `npm run docs:endpoints` (scripts/docs-endpoints.ts). They must match
 * what the route declarations produce now, and every operation must have a doc.
 */

const ROOT = path.resolve(__dirname, '..', '..');

let document: Record<string, unknown>;
let tables: EndpointTables;

beforeAll(() => {
  document = buildDocument();
  tables = endpointTables(document);
});

test('every operation of the OpenAPI document maps to a doc', () => {
  if (tables.unmapped.length > 0) {
    throw new Error(
      `operations in no doc: give their first tag a doc in DOC_OF_TAG (scripts/endpoint-tables.ts), then run ` +
        `\`npm run docs:endpoints\`:\n${tables.unmapped.join('\n')}`,
    );
  }
});

test('every operation is in exactly one table', () => {
  const paths = document.paths as Record<string, Record<string, unknown>>;
  const operations = Object.entries(paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`));
  const rows = [...tables.rowsByDoc.values()].flat().map((row) => `${row.method} ${row.path}`);
  expect(rows.slice().sort()).toEqual(operations.slice().sort());
  expect(new Set(rows).size).toBe(rows.length);
});

test('each doc holds the endpoint table the generator writes (else run `npm run docs:endpoints`)', () => {
  const stale: string[] = [];
  for (const [doc, rows] of tables.rowsByDoc) {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    let expected: string;
    try {
      expected = replaceMarkedSection(text, renderSection(rows));
    } catch (err) {
      stale.push(`${doc}: ${(err as Error).message}`);
      continue;
    }
    if (expected === text) continue;
    const have = text.split('\n');
    const want = expected.split('\n');
    const line = want.findIndex((wanted, i) => have[i] !== wanted);
    stale.push(`${doc}, line ${line + 1}:\n    is:        ${have[line] ?? '(end of file)'}\n    generated: ${want[line] ?? '(end of file)'}`);
  }
  if (stale.length > 0) {
    throw new Error(`the endpoint tables are stale: run \`npm run docs:endpoints\`\n${stale.join('\n')}`);
  }
});

describe('the pure steps', () => {
  const operation = (tag: string, extra: Record<string, unknown> = {}) => ({
    operationId: 'op',
    summary: 'Do it',
    tags: [tag],
    responses: { '200': { description: 'ok' }, '404': { description: 'not found' } },
    ...extra,
  });

  test('an operation whose first tag has no doc is reported', () => {
    const { unmapped, rowsByDoc } = endpointTables({
      paths: { '/x': { get: operation('no-such-tag') }, '/y': { get: operation('secrets') } },
    });
    expect(unmapped).toEqual(['GET /x (tags: no-such-tag)']);
    expect(rowsByDoc.get(DOC_OF_TAG.secrets)?.map((row) => row.path)).toEqual(['/y']);
  });

  test('who: public, signed in, or the roles of the permission', () => {
    const { rowsByDoc } = endpointTables({
      paths: {
        '/a': { get: operation('secrets', { security: [] }) },
        '/b': { get: operation('secrets', { security: [{ bearerAuth: [] }] }) },
        '/c': { get: operation('secrets', { security: [{ bearerAuth: [] }, { apiKeyHeader: [] }], 'x-permission': 'secrets:write' }) },
        '/d': { get: operation('secrets', { security: [{ bearerAuth: [] }, { apiKeyHeader: [] }], 'x-permission': 'organization:delete' }) },
      },
    });
    expect(rowsByDoc.get(DOC_OF_TAG.secrets)?.map((row) => row.who)).toEqual([
      'public',
      'signed in',
      'admin+ (`secrets:write`)',
      'owner (`organization:delete`)',
    ]);
    expect(rolesInWords(['owner', 'admin', 'member', 'viewer'])).toBe('viewer+');
    expect(rolesInWords(['owner', 'member'])).toBe('owner, member');
  });

  test('rows sort by path, then method; success lists 1xx-3xx statuses', () => {
    const { rowsByDoc } = endpointTables({
      paths: {
        '/b': { delete: operation('secrets'), get: operation('secrets') },
        '/a': { post: operation('secrets', { responses: { '201': {}, '200': {}, '400': {} } }) },
      },
    });
    const rows = rowsByDoc.get(DOC_OF_TAG.secrets) ?? [];
    expect(rows.map((row) => `${row.method} ${row.path}`)).toEqual(['POST /a', 'GET /b', 'DELETE /b']);
    expect(rows[0]?.success).toBe('200, 201: Do it');
  });

  test('request bodies: the example shortened to fit, multipart fields, none', () => {
    const body = (content: Record<string, unknown>) => ({ requestBody: { content } });
    const { rowsByDoc } = endpointTables({
      paths: {
        '/a': { post: operation('secrets', body({ 'application/json': { examples: { default: { value: { name: 'Greeting' } } } } })) },
        '/b': {
          post: operation(
            'secrets',
            body({ 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: {}, title: {} } } } }),
          ),
        },
        '/c': { post: operation('secrets') },
      },
    });
    expect(rowsByDoc.get(DOC_OF_TAG.secrets)?.map((row) => row.requestBody)).toEqual(['`{"name": "Greeting"}`', 'multipart: file, title?', '—']);
    expect(compactJson({ name: 'Greeting', dag: { nodes: [{ id: 'a'.repeat(200) }] } })).toBe('{"name": "Greeting", "dag": {"nodes": [...]}}');
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`node${i}`, 'tool']));
    expect(compactJson({ name: 'Greeting', dag: wide })).toBe('{"name": "Greeting", "dag": {...}}');
    expect(compactJson({ a: 1, b: [1, 2] })).toBe('{"a": 1, "b": [1, 2]}');
    expect(compactJson({ text: 'x'.repeat(500) }).length).toBeLessThanOrEqual(EXAMPLE_WIDTH);
  });

  test('cells escape pipes and stay on one line', () => {
    expect(cell('a | b\n  c')).toBe('a \\| b c');
    const section = renderSection([{ method: 'GET', path: '/x', who: 'public', requestBody: '`{"e": "a|b"}`', success: '200: one|two' }]);
    expect(section).toContain('| GET | `/x` | public | `{"e": "a\\|b"}` | 200: one\\|two |');
  });

  test('markers: the section goes between them; missing, doubled or reversed markers throw', () => {
    const doc = `# T\n\n## Endpoints\n\n${START_MARKER}\nold\n${END_MARKER}\n\nprose\n`;
    expect(replaceMarkedSection(doc, 'new')).toBe(`# T\n\n## Endpoints\n\n${START_MARKER}\nnew\n${END_MARKER}\n\nprose\n`);
    expect(() => replaceMarkedSection('# T\n', 'new')).toThrow(/markers/);
    expect(() => replaceMarkedSection(`${doc}${START_MARKER}\n`, 'new')).toThrow(/more than once/);
    expect(() => replaceMarkedSection(`${END_MARKER}\n${START_MARKER}\n`, 'new')).toThrow(/before/);
  });
});
