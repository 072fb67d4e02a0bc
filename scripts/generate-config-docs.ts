/**
 * Writes the configuration's documentation from the keys' docs (lib/config/keys/): the README's configuration table
 * and `.env.example` (lib/config/docs.ts renders them). `--check` writes nothing and exits 1 when either is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderEnvExample, withReadmeTable } from '../lib/config/docs';

const root = path.resolve(__dirname, '..');
const files = [
  { file: path.join(root, 'README.md'), render: (current: string) => withReadmeTable(current) },
  { file: path.join(root, '.env.example'), render: () => renderEnvExample() },
];

const check = process.argv.includes('--check');
let stale = 0;
for (const { file, render } of files) {
  const current = readFileSync(file, 'utf8');
  const wanted = render(current);
  if (current === wanted) continue;
  stale += 1;
  if (check) console.error(`${path.relative(root, file)} is not current: run npm run generate:config-docs`);
  else writeFileSync(file, wanted);
}
if (!check) console.log(stale ? `wrote ${stale} file(s)` : 'configuration docs are current');
process.exit(check && stale ? 1 : 0);
