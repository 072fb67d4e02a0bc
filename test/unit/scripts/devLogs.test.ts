import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The logs of the processes the dev scripts start (docs/operating.md#logs): `.data/logs/<name>.log` holds only what
 * the process writes, so the API's and the worker's stay JSON lines that the documented `jq` query reads; the start
 * lines go to `starts.log`. And the documented `temporal` commands are reachable as written (`scripts/temporal`).
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'loom-logs-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `spawn_bg` of scripts/lib.sh on a process that writes two JSON lines, and waits for it to end. */
function spawnJsonWriter(name: string): void {
  const script = `
    . scripts/lib.sh
    pid="$(spawn_bg ${name} "log-probe" node -e 'for (const msg of ["one", "two"]) console.log(JSON.stringify({ level: "info", msg }))')"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  `;
  execFileSync('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, LOOM_DATA_DIR: dataDir }, timeout: 30_000 });
}

describe('logs of started processes', () => {
  test('hold only the JSON lines the process wrote, start after start; starts.log says when each started', () => {
    spawnJsonWriter('probe');
    spawnJsonWriter('probe');
    const lines = readFileSync(path.join(dataDir, 'logs', 'probe.log'), 'utf8').split('\n').filter((l) => l !== '');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['one', 'two', 'one', 'two']);
    const starts = readFileSync(path.join(dataDir, 'logs', 'starts.log'), 'utf8').trim().split('\n');
    expect(starts).toHaveLength(2);
    for (const line of starts) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ probe pid \d+: node -e /);
  });
});

/** The first ```sh block of docs/operating.md that runs jq, with its placeholders. */
function documentedJqQuery(): string {
  const blocks = [...read('docs/operating.md').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const line = blocks.flatMap((b) => b.split('\n')).find((l) => l.startsWith('jq '));
  if (!line) throw new Error('docs/operating.md has no jq query');
  return line;
}

const hasJq = spawnSync('jq', ['--version']).status === 0;

(hasJq ? test : test.skip)('the documented jq query finds a run\'s lines in a worker log (skipped without jq)', () => {
  const log = path.join(dataDir, 'worker.log');
  writeFileSync(
    log,
    [
      'SERVICE_JWT_SECRET is not set: a plain line a process may write before it exits',
      JSON.stringify({ level: 'info', msg: 'run execution started', runId: 'run-1' }),
      JSON.stringify({ level: 'info', msg: 'request', requestId: 'req-1' }),
      JSON.stringify({ level: 'info', msg: 'other', runId: 'run-2' }),
      '',
    ].join('\n'),
  );
  const query = documentedJqQuery().replace('<request id>', 'req-1').replace('<run id>', 'run-1').replace('.data/logs/worker.log', log);
  const out = execFileSync('bash', ['-c', query], { encoding: 'utf8' });
  expect(out.trim().split('\n').map((l) => JSON.parse(l).msg)).toEqual(['run execution started', 'request']);
});

describe('the temporal commands of the docs', () => {
  const commandLines = (file: string): string[] =>
    [...read(file).matchAll(/```sh\n([\s\S]*?)```|`([^`\n]+)`/g)].flatMap((m) => (m[1] ?? m[2]!).split('\n')).filter((l) => /^(?:scripts\/)?temporal\s/.test(l));

  test.each(['docs/operating.md', 'docs/conventions.md'])('%s calls it as scripts/temporal', (file) => {
    const lines = commandLines(file);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => !l.startsWith('scripts/temporal '))).toEqual([]);
  });

  test('scripts/temporal runs the binary scripts/lib.sh builds', () => {
    const libBin = execFileSync('bash', ['-c', '. scripts/lib.sh && printf %s "$TEMPORAL_BIN"'], { cwd: ROOT, encoding: 'utf8' });
    const wrapperBin = execFileSync(path.join(ROOT, 'scripts', 'temporal'), ['--bin'], { cwd: tmpdir(), encoding: 'utf8' }).trim();
    expect(wrapperBin).toBe(libBin);
    expect(wrapperBin).toMatch(/\/temporal-[0-9a-f]{12}\/temporal$/);
  });
});
