import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { freePort, REPO_ROOT, waitForHttp, type Child } from '../lib/procs';
import { sleep } from '../lib/stats';

/**
 * The peer row's other side (docs/benchmarks.md#peer-n8n): a real n8n, installed by `bench/peer/install-n8n` into
 * ~/.cache/loom/n8n-<version>/ (its own Node 24), started here as a child of the bench on a scratch PostgreSQL
 * database and a free loopback port, with one workflow "Webhook (respond when the last node finishes) -> Set".
 *
 * The workflow goes in through n8n's own CLI before the server starts (`import:workflow`, then
 * `publish:workflow`): no owner account, API key or REST call is needed, and `n8n start` activates the published
 * workflow's webhook at boot. Everything n8n could reach outside is switched off (diagnostics, version
 * notifications, templates, personalization, community packages) and an unreachable proxy catches anything else.
 */

const INSTALL_SCRIPT = path.join(REPO_ROOT, 'bench', 'peer', 'install-n8n');

/** A version pinned in bench/peer/install-n8n (the single place where they are written). */
function pinned(name: 'N8N_VERSION' | 'NODE24_VERSION'): string {
  const match = new RegExp(`^${name}="([0-9.]+)"$`, 'm').exec(readFileSync(INSTALL_SCRIPT, 'utf8'));
  if (!match) throw new Error(`${INSTALL_SCRIPT} does not pin ${name}`);
  return match[1]!;
}

export const N8N_VERSION = pinned('N8N_VERSION');
export const N8N_NODE_VERSION = pinned('NODE24_VERSION');

/** Where the install script puts n8n and its Node (LOOM_N8N_CACHE overrides ~/.cache/loom, as in the script). */
export function n8nInstallDir(): string {
  return path.join(process.env.LOOM_N8N_CACHE ?? path.join(homedir(), '.cache', 'loom'), `n8n-${N8N_VERSION}`);
}

/** True once `bash bench/peer/install-n8n` has completed (it writes the marker last). */
export function n8nInstalled(): boolean {
  return existsSync(path.join(n8nInstallDir(), '.installed'));
}

const WEBHOOK_PATH = 'loom-peer';
/** Fixed so that `publish:workflow --id` can name it. */
const WORKFLOW_ID = 'LoomPeerBench001';
/** Bounds: the first start migrates a fresh database (~100 migrations: up to a minute on a busy 2-core box). */
const CLI_TIMEOUT_MS = 240_000;
const READY_TIMEOUT_MS = 240_000;
const FIRE_TIMEOUT_MS = 30_000;

export interface N8nPeer {
  version: string;
  nodeVersion: string;
  /** The production webhook URL (always http://127.0.0.1:<port>/webhook/...). */
  webhookUrl: string;
  logPath: string;
  /** One execution: POST to the webhook, resolved when n8n answers with the Set node's output. */
  fire(): Promise<void>;
  /** n8n's processes (the main process and any child it started, e.g. a task runner): for CPU meters. */
  pids(): number[];
  /** Stops n8n (its whole process group), drops its database and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartN8nOptions {
  /** A connection string to the `postgres` database of a PostgreSQL on this machine (the bench's scratch admin URL). */
  adminDbUrl: string;
  /** The n8n database to create (and drop in stop()); it must not exist. */
  dbName: string;
  /** A folder for n8n's user folder (removed in stop()). */
  dir: string;
  /** Where the n8n logs go (n8n-*.log). */
  logDir: string;
  log(line: string): void;
  /** Extra n8n settings (experiments: e.g. DB_POSTGRESDB_POOL_SIZE); the row runs with none. */
  extraEnv?: Record<string, string>;
}

interface LocalPg {
  port: number;
  user: string;
  password: string;
}

/** The bench only targets 127.0.0.1: a database URL naming another host (or carrying query parameters, which can) is refused. */
function localPg(adminDbUrl: string): LocalPg {
  const url = new URL(adminDbUrl);
  if (!/^postgres(ql)?:$/.test(url.protocol)) throw new Error(`not a PostgreSQL URL: ${url.protocol}`);
  if (!['127.0.0.1', 'localhost'].includes(url.hostname)) throw new Error(`n8n peer: PostgreSQL must be on 127.0.0.1, not ${url.hostname}`);
  if (url.search) throw new Error('n8n peer: a database URL with query parameters is refused (they can redirect the connection)');
  return { port: Number(url.port || 5432), user: decodeURIComponent(url.username || 'postgres'), password: decodeURIComponent(url.password) };
}

async function adminQuery(pg: LocalPg, sql: string): Promise<void> {
  const client = new PgClient({ host: '127.0.0.1', port: pg.port, user: pg.user, password: pg.password || undefined, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The workflow, as n8n's export format: Webhook (POST, answer with the last node's first item) -> Set (n = body.n + 1). */
function workflowJson(): Record<string, unknown> {
  return {
    id: WORKFLOW_ID,
    name: 'loom peer bench: webhook -> set',
    active: false,
    settings: { executionOrder: 'v1' },
    nodes: [
      {
        id: randomUUID(),
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: randomUUID(),
        parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'lastNode', responseData: 'firstEntryJson', options: {} },
      },
      {
        id: randomUUID(),
        name: 'Set',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [220, 0],
        parameters: {
          mode: 'manual',
          assignments: { assignments: [{ id: randomUUID(), name: 'n', value: '={{ $json.body.n + 1 }}', type: 'number' }] },
          options: {},
        },
      },
    ],
    connections: { Webhook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
  };
}

/** Pids of a process group (n8n runs as the leader of its own group: detached). */
function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const alive = (child: Child) => child.proc.exitCode === null && child.proc.signalCode === null;

/**
 * Runs `<node24> n8n <args>` as the leader of its own process group, its output in `<logDir>/<name>.log`, with
 * only the environment given (nothing of the bench's own, e.g. its DATABASE_URL or Node options, leaks in).
 */
function spawnN8n(name: string, args: string[], env: Record<string, string>, cwd: string, logDir: string): Child {
  const home = n8nInstallDir();
  const logPath = path.join(logDir, `${name}.log`);
  const out = openSync(logPath, 'a');
  const proc = spawn(path.join(home, 'node', 'bin', 'node'), [path.join(home, 'app', 'node_modules', 'n8n', 'bin', 'n8n'), ...args], {
    cwd,
    env,
    stdio: ['ignore', out, out],
    detached: true,
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const pid = proc.pid!;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone
    }
  };
  // If the bench exits without stop() (its watchdog, Ctrl-C), n8n must not outlive it.
  const onExit = () => signalGroup('SIGKILL');
  process.once('exit', onExit);
  const child: Child = {
    name,
    proc,
    pid,
    logPath,
    async stop(graceMs = 15_000) {
      if (alive(child)) {
        signalGroup('SIGTERM');
        const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // The leader is gone; anything left in its group (a task runner) goes too.
      signalGroup('SIGKILL');
      process.removeListener('exit', onExit);
    },
  };
  return child;
}

function logTail(logPath: string): string {
  return existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-3000) : '(no log)';
}

/** A one-shot n8n CLI command (import, publish), bounded in time; fails on a non-zero exit or a logged error. */
async function runCli(name: string, args: string[], env: Record<string, string>, cwd: string, logDir: string, errorPattern: RegExp): Promise<void> {
  const child = spawnN8n(name, args, env, cwd, logDir);
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => void child.stop(5000), CLI_TIMEOUT_MS);
    child.proc.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  await child.stop();
  const text = logTail(child.logPath);
  // n8n's commands log some failures and still exit 0.
  if (code !== 0 || errorPattern.test(text)) throw new Error(`n8n ${args[0]} failed (exit ${code}); see ${child.logPath}:\n${text}`);
}

/**
 * Starts n8n with the benchmark workflow and waits until its webhook answers. On any failure everything started
 * so far is stopped and removed before the error is thrown.
 */
export async function startN8n(options: StartN8nOptions): Promise<N8nPeer> {
  if (!n8nInstalled()) throw new Error(`n8n ${N8N_VERSION} is not installed (bash bench/peer/install-n8n)`);
  if (!/^[a-z0-9_]+$/.test(options.dbName)) throw new Error(`unexpected database name ${options.dbName}`);
  const pg = localPg(options.adminDbUrl);
  const userFolder = path.join(options.dir, 'n8n');
  mkdirSync(userFolder, { recursive: true });
  mkdirSync(options.logDir, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const webhookUrl = `${base}/webhook/${WEBHOOK_PATH}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: userFolder,
    TZ: 'UTC',
    NODE_ENV: 'production',
    DB_TYPE: 'postgresdb',
    DB_POSTGRESDB_HOST: '127.0.0.1',
    DB_POSTGRESDB_PORT: String(pg.port),
    DB_POSTGRESDB_USER: pg.user,
    DB_POSTGRESDB_PASSWORD: pg.password,
    DB_POSTGRESDB_DATABASE: options.dbName,
    N8N_USER_FOLDER: userFolder,
    N8N_ENCRYPTION_KEY: randomUUID(),
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    N8N_WEBHOOK_URL: `${base}/`,
    EXECUTIONS_MODE: 'regular',
    N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
    // Isolated: nothing reaches n8n's servers (docs.n8n.io, "Isolate n8n") or anything else.
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
    N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
    EXTERNAL_FRONTEND_HOOKS_URLS: '',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_COMMUNITY_PACKAGES_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    // Its refresh task fetches a list of MCP servers from api.n8n.io at start.
    N8N_DISABLED_MODULES: 'mcp-registry',
    // Anything still trying to go out meets a closed local port (and shows in n8n.log).
    HTTP_PROXY: 'http://127.0.0.1:9',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    ...options.extraEnv,
  };

  let server: Child | null = null;
  let dbCreated = false;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (server) await server.stop();
    if (dbCreated) await adminQuery(pg, `DROP DATABASE IF EXISTS ${options.dbName} WITH (FORCE)`).catch((err: Error) => options.log(`n8n: drop database: ${err.message}`));
    rmSync(userFolder, { recursive: true, force: true });
  };

  try {
    await adminQuery(pg, `CREATE DATABASE ${options.dbName}`);
    dbCreated = true;
    const workflowPath = path.join(userFolder, 'workflow.json');
    writeFileSync(workflowPath, JSON.stringify(workflowJson(), null, 2));
    let t0 = performance.now();
    await runCli('n8n-import', ['import:workflow', `--input=${workflowPath}`], env, userFolder, options.logDir, /An error occurred while importing/);
    options.log(`  n8n: database migrated and workflow imported in ${Math.round((performance.now() - t0) / 1000)} s`);
    await runCli('n8n-publish', ['publish:workflow', `--id=${WORKFLOW_ID}`], env, userFolder, options.logDir, /Error updating database|GOT ERROR/);
    t0 = performance.now();
    server = spawnN8n('n8n', ['start'], env, userFolder, options.logDir);
    await waitForHttp(server, `${base}/healthz/readiness`, READY_TIMEOUT_MS);
    await waitForWebhook(server, webhookUrl);
    options.log(`  n8n ${N8N_VERSION} (Node ${N8N_NODE_VERSION}) ready at ${base} in ${Math.round((performance.now() - t0) / 1000)} s (pid ${server.pid})`);
  } catch (err) {
    await stop();
    throw err;
  }
  const leader = server.pid;
  return {
    version: N8N_VERSION,
    nodeVersion: N8N_NODE_VERSION,
    webhookUrl,
    logPath: server.logPath,
    fire: () => fireOnce(webhookUrl),
    pids: () => groupPids(leader),
    stop,
  };
}

/** The server answers before its webhooks are registered: wait until ours answers like a finished execution. */
async function waitForWebhook(server: Child, webhookUrl: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    if (!alive(server)) throw new Error(`n8n exited (${server.proc.exitCode}); see ${server.logPath}:\n${logTail(server.logPath)}`);
    try {
      await fireOnce(webhookUrl);
      return;
    } catch (err) {
      last = (err as Error).message;
      await sleep(500);
    }
  }
  throw new Error(`n8n: the webhook ${webhookUrl} did not answer within ${READY_TIMEOUT_MS / 1000} s (last: ${last}); see ${server.logPath}:\n${logTail(server.logPath)}`);
}

async function fireOnce(webhookUrl: string): Promise<void> {
  const res = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"n":1}',
    signal: AbortSignal.timeout(FIRE_TIMEOUT_MS),
    redirect: 'error',
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`n8n webhook answered ${res.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { n?: unknown };
  if (body.n !== 2) throw new Error(`n8n webhook answered ${text.slice(0, 300)} (expected {"n":2})`);
}
