import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_KEYS } from '../../lib/config';
import { README_TABLE_END, README_TABLE_START, renderEnvExample, renderReadmeTable, withReadmeTable } from '../../lib/config/docs';

/**
 * The configuration's documentation is generated from the keys' docs (lib/config/keys/) and current: README.md's
 * table and .env.example say exactly what lib/config/docs.ts renders (`npm run generate:config-docs` writes them).
 */
const root = path.join(__dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const envExample = readFileSync(path.join(root, '.env.example'), 'utf8');

test('the spec knows over a hundred keys, each once', () => {
  expect(CONFIG_KEYS.length).toBeGreaterThan(100);
  expect(new Set(CONFIG_KEYS).size).toBe(CONFIG_KEYS.length);
});

test('README.md holds the configuration table as generated', () => {
  const table = readme.slice(readme.indexOf(README_TABLE_START), readme.indexOf(README_TABLE_END) + README_TABLE_END.length);
  expect(table).toBe(renderReadmeTable());
});

test('.env.example is as generated', () => {
  expect(envExample).toBe(renderEnvExample());
});

test('the table names every key of the spec once, and .env.example sets each once', () => {
  const named = [...renderReadmeTable().matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!).filter((k) => CONFIG_KEYS.includes(k));
  expect(new Set(named)).toEqual(new Set(CONFIG_KEYS));
  const set = [...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  expect([...set].sort()).toEqual([...CONFIG_KEYS].sort());
});

test('a stale README is caught and rewritten between the markers only', () => {
  const stale = readme.replace('| `LOG_LEVEL` |', '| `LOG_LEVEL_OLD` |');
  expect(stale).not.toBe(readme);
  expect(withReadmeTable(stale)).toBe(readme);
  expect(() => withReadmeTable('# no table here')).toThrow(/markers/);
});
