/**
 * Writes the endpoint table of each domain doc (docs/auth.md, docs/workflows.md, ...) between its
 * `<!-- endpoints:start -->` and `<!-- endpoints:end -->` markers, from the OpenAPI document the route declarations
 * produce. The document is built in-process exactly as `npm run generate:client` builds it (nothing is started or
 * contacted); the pure steps, and which tag goes to which doc, are in scripts/endpoint-tables.ts.
 *
 *   npm run docs:endpoints
 *
 * Exits 1, writing nothing, when an operation maps to no doc or a doc lacks its markers.
 * test/unit/docsEndpoints.test.ts fails when a committed table differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { endpointTables, renderSection, replaceMarkedSection } from './endpoint-tables';
import { buildDocument } from './generate-client';

const ROOT = path.resolve(__dirname, '..');

function main(): number {
  const { rowsByDoc, unmapped } = endpointTables(buildDocument());
  if (unmapped.length > 0) {
    console.error(
      `docs-endpoints: ${unmapped.length} operation(s) map to no doc; give their first tag a doc in DOC_OF_TAG ` +
        `(scripts/endpoint-tables.ts):\n${unmapped.map((line) => `  ${line}`).join('\n')}`,
    );
    return 1;
  }
  // Every doc is checked before any is written, so a failure leaves the docs as they were.
  const updates: { file: string; before: string; after: string }[] = [];
  const problems: string[] = [];
  for (const [doc, rows] of rowsByDoc) {
    const file = path.join(ROOT, doc);
    const before = readFileSync(file, 'utf8');
    try {
      updates.push({ file, before, after: replaceMarkedSection(before, renderSection(rows)) });
    } catch (err) {
      problems.push(`  ${doc}: ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) {
    console.error(`docs-endpoints: put the markers under the doc's "## Endpoints" heading:\n${problems.join('\n')}`);
    return 1;
  }
  for (const { file, before, after } of updates) {
    if (after !== before) writeFileSync(file, after);
    console.log(`${after === before ? 'unchanged' : 'updated  '} ${path.relative(process.cwd(), file)}`);
  }
  return 0;
}

if (require.main === module) {
  let code = 1;
  try {
    code = main();
  } catch (err) {
    console.error(`docs-endpoints: ${(err as Error).stack ?? String(err)}`);
  }
  // process.exit, not a return: the app's domains may hold timers (usage meter flushes), as in generate-client.
  process.exit(code);
}
