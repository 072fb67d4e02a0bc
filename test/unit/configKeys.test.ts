import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_KEYS } from '../../lib/config';

/** Every key lib/config/spec.ts knows is documented: a row of README.md's configuration table and a line of .env.example. */
const root = path.join(__dirname, '../..');
const readmeRows = readFileSync(path.join(root, 'README.md'), 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('| `'));
const envExample = readFileSync(path.join(root, '.env.example'), 'utf8');
const exampleKeys = [...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);

test('the spec knows over a hundred keys, each once', () => {
  expect(CONFIG_KEYS.length).toBeGreaterThan(100);
  expect(new Set(CONFIG_KEYS).size).toBe(CONFIG_KEYS.length);
});

test.each(CONFIG_KEYS)('%s is in the README configuration table', (key) => {
  expect(readmeRows.filter((row) => row.includes(`\`${key}\``))).not.toEqual([]);
});

test('.env.example lists exactly the keys of the spec', () => {
  expect([...exampleKeys].sort()).toEqual([...CONFIG_KEYS].sort());
});
