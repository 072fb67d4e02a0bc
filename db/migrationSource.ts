import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

/**
 * Migrations are the files `db/migrations/NNNN_name.ts` (or `.js` once compiled), applied in name order. Listing
 * the folder ourselves keeps the same behaviour under tsx, jest and compiled JavaScript.
 */
const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.(ts|js)$/;
const directory = path.join(__dirname, 'migrations');

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    const names = new Map<string, string>();
    for (const file of readdirSync(directory)) {
      if (MIGRATION_FILE.test(file) && !file.endsWith('.d.ts')) names.set(file.replace(/\.(ts|js)$/, ''), file);
    }
    return [...names.keys()].sort();
  },
  getMigrationName(name) {
    return name;
  },
  async getMigration(name) {
    // The migrations folder's own files, listed above (db/migrations/NNNN_name.ts).
    // eslint-disable-next-line @typescript-eslint/no-require-imports, loom/layer-imports
    return require(path.join(directory, name)) as MigrationModule;
  },
};
