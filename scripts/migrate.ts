import { ConfigError, loadConfig } from '../lib/config';
import { createDb, migrateLatest, migrateRollbackAll } from '../db/knex';

/** `tsx scripts/migrate.ts [latest|rollback-all]` */
async function main(): Promise<void> {
  const command = process.argv[2] ?? 'latest';
  let config;
  try {
    config = loadConfig({ SERVICE_JWT_SECRET: 'x'.repeat(32), ...process.env });
  } catch (err) {
    console.error(`migrate: ${(err as ConfigError).message}`);
    process.exit(2);
  }
  const db = createDb(config.database.url, 2);
  try {
    if (command === 'rollback-all') {
      await migrateRollbackAll(db);
      console.log('migrate: rolled back all migrations');
    } else if (command === 'latest') {
      const applied = await migrateLatest(db);
      console.log(applied.length ? `migrate: applied ${applied.join(', ')}` : 'migrate: already up to date');
    } else {
      console.error(`migrate: unknown command ${command} (use latest or rollback-all)`);
      process.exitCode = 2;
    }
  } catch (err) {
    console.error(`migrate: ${(err as Error).message}`);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

void main();
