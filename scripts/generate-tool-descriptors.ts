import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { listTools } from '../activities/tools/registry';
import { builtInDescriptorsSource } from '../lib/tools/builtInSource';

/**
 * Writes lib/tools/builtIn.generated.ts: the descriptors of the built-in tool modules (activities/tools/), as data.
 * The API falls back to them before any worker has published its catalogue, without loading tool code.
 * `npm run generate:tools` after changing a tool's id, schemas or metadata; test/unit/tools/builtInDescriptors.test.ts
 * fails while the file is stale.
 */
const target = path.join(__dirname, '..', 'lib', 'tools', 'builtIn.generated.ts');
writeFileSync(target, builtInDescriptorsSource(listTools()));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
