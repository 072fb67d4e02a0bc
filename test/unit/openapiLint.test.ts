import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDocument } from '../../scripts/generate-client';
import { lintOpenApiFile } from '../../scripts/lint-openapi';

/**
 * The OpenAPI lint (scripts/lint-openapi.ts: Redocly CLI with redocly.yaml) passes on the document the routes
 * produce, and fails on each kind of problem planted in a copy of it. scripts/test runs the same lint as a step.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dir: string;
let document: Json;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loom-openapi-lint-'));
  document = buildDocument() as Json;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lint(doc: Json, name: string) {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return lintOpenApiFile(file);
}

test('the document passes with 0 errors and 0 warnings', () => {
  const result = lint(document, 'openapi.json');
  if (!result.ok) throw new Error(result.output);
  expect(result.report?.totals).toMatchObject({ errors: 0, warnings: 0 });
}, 120_000);

test('planted problems fail the lint, each under its rule', () => {
  const doc = structuredClone(document);
  const login = doc.paths['/api/auth/login'].post;
  // a request body without an example
  delete login.requestBody.content['application/json'].examples;
  // an error answer without examples
  delete login.responses['401'].content['application/json'].examples;
  // a request example that does not match its schema
  doc.paths['/api/auth/register'].post.requestBody.content['application/json'].examples.default.value.nickname = 'Ada';
  // an error example with a code the catalogue does not have
  doc.paths['/api/auth/register'].post.responses['400'].content['application/json'].examples.VALIDATION_ERROR.value.error.code =
    'NOT_A_CODE';
  // a tag no one declared, and a declared tag without a description
  login.tags = [...login.tags, 'undeclared'];
  delete doc.tags[0].description;
  // a reference to a component that does not exist
  doc.paths['/api/v1/workflows/{id}'].get.responses['200'].content['application/json'].schema = {
    $ref: '#/components/schemas/NoSuchSchema',
  };

  const result = lint(doc, 'planted.json');
  expect(result.ok).toBe(false);
  const rules = new Set(result.report?.problems.map((p) => p.ruleId));
  expect([...rules].sort()).toEqual(
    expect.arrayContaining([
      'no-invalid-media-type-examples',
      'no-unresolved-refs',
      'operation-tag-defined',
      'rule/error-response-example',
      'rule/request-body-example',
      'tag-description',
    ]),
  );
  // both bad examples are reported, each at its place
  const examplePointers = result.report!.problems.filter((p) => p.ruleId === 'no-invalid-media-type-examples').map((p) => p.location?.[0]?.pointer);
  expect(examplePointers).toEqual(
    expect.arrayContaining([expect.stringContaining('/examples/default/value/nickname'), expect.stringContaining('/examples/VALIDATION_ERROR/value')]),
  );
}, 120_000);
