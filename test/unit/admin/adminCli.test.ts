import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '../../../db/knex';
import { COMMANDS, runAdmin } from '../../../scripts/admin-cli';

/**
 * The operator CLI's own rules, without a database: the `scripts/admin` entry point works from any directory, help
 * lists every command, `--json` makes every answer and every failure one JSON line, and bad usage is one line on
 * stderr with exit 2. What the commands read is tested against the real stack (test/integration/admin-cli.test.ts).
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** No command in these tests gets as far as a query: a database handle that is never used. */
const unusedDb = {} as Db;

async function call(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, db: unusedDb });
  return { code, out, err };
}

describe('scripts/admin, the entry point', () => {
  let elsewhere: string;
  beforeAll(() => {
    elsewhere = mkdtempSync(path.join(tmpdir(), 'loom-admin-'));
  });
  afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

  const runScript = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('bash', [path.join(ROOT, 'scripts', 'admin'), ...args], { cwd: elsewhere, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      });
    });

  test('answers --help from another directory (it is a script, not the folder of the command modules)', async () => {
    const res = await runScript('--help');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^usage: scripts\/admin \[--json\] <command> \[args\]/);
  }, 60_000);

  test('passes the exit code of bad usage through', async () => {
    const res = await runScript('no-such-command');
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});

describe('help', () => {
  test('lists every command with its usage and summary', async () => {
    const { code, out } = await call('--help');
    expect(code).toBe(0);
    for (const [name, command] of Object.entries(COMMANDS)) {
      expect(out).toContain(`  ${name}${command.usage ? ` ${command.usage}` : ''}`);
      expect(out).toContain(`      ${command.summary}`);
    }
  });

  test('the look-up commands are there', () => {
    expect(Object.keys(COMMANDS)).toEqual(expect.arrayContaining(['runs', 'orgs', 'users']));
  });

  test('with --json, one JSON line naming every command', async () => {
    const { code, out } = await call('help', '--json');
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!).commands.map((c: { command: string }) => c.command)).toEqual(Object.keys(COMMANDS));
  });

  test('<command> --help prints that command\'s usage', async () => {
    expect(await call('runs', '--help')).toEqual({
      code: 0,
      out: [`usage: npm run admin -- runs ${COMMANDS.runs!.usage}: ${COMMANDS.runs!.summary}`],
      err: [],
    });
  });
});

describe('bad usage: one line on stderr, exit 2', () => {
  test.each([
    [['runs'], 'usage: npm run admin -- runs show <run-id> | list --org <id> [--status <status>] [--limit N]'],
    [['runs', 'show', 'x'], 'the run id must be a UUID, got "x"; usage: npm run admin -- runs '],
    [['runs', 'list', '--status', 'done'], '--status must be one of pending, running, completed, failed, cancelled, got "done"; usage: '],
    [['runs', 'list', '--limit', '5'], '--org is required; usage: '],
    [['orgs', 'delete', 'x'], 'unknown action "delete" (list or show); usage: npm run admin -- orgs '],
    [['orgs', 'list', '--limit', 'all'], '--limit must be an integer from 1 to 1000, got "all"; usage: '],
    [['users', 'show'], 'usage: npm run admin -- users show <email|id>'],
    [['users', 'find', 'a@example.com'], 'unknown action "find" (show); usage: '],
    [['frobnicate'], 'unknown command "frobnicate"; usage: npm run admin -- [--json] <command> (commands: '],
  ])('%j', async (argv, start) => {
    const text = await call(...argv);
    expect(text.code).toBe(2);
    expect(text.out).toEqual([]);
    expect(text.err).toHaveLength(1);
    expect(text.err[0]!.startsWith(`admin: ${start}`)).toBe(true);

    // the same failure under --json, wherever the flag stands: one JSON error object
    for (const json of [await call('--json', ...argv), await call(...argv, '--json')]) {
      expect(json.code).toBe(2);
      expect(json.out).toEqual([]);
      expect(json.err).toHaveLength(1);
      const { error } = JSON.parse(json.err[0]!);
      expect(error.code).toBe('USAGE_ERROR');
      expect(error.message.startsWith(start)).toBe(true);
    }
  });

  test('no command at all', async () => {
    const { code, err } = await call();
    expect(code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^admin: usage: npm run admin -- \[--json\] <command> \(commands: /);
  });
});
