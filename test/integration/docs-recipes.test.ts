import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * docs/recipes.md, run as printed: each recipe's `sh` block after the setup block, in a clean bash with only
 * LOOM_URL pointing at this test's API, and its printed line compared with what the page says it prints.
 */
const PAGE = join(__dirname, '..', '..', 'docs', 'recipes.md');

function block(page: string, name: string): string {
  const found = new RegExp(`<!-- recipe:${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(page);
  if (!found) throw new Error(`docs/recipes.md has no recipe:${name} block`);
  return found[1]!;
}

/** The line the page says a recipe prints: the `Prints \`...\`` after its block. */
function promised(page: string, name: string): string {
  const after = page.slice(page.indexOf(`<!-- recipe:${name} -->`));
  const line = /Prints `([^`]+)`/.exec(after);
  if (!line) throw new Error(`recipe ${name} says nothing of what it prints`);
  return line[1]!;
}

function runBash(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-eo', 'pipefail', '-c', script], { env, cwd, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

let api: TestApi;
let dir: string;
const page = readFileSync(PAGE, 'utf8');

beforeAll(async () => {
  api = await startApi();
  dir = mkdtempSync(join(tmpdir(), 'loom-recipes-'));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

test.each(['webhook', 'nightly', 'approval', 'content'])('recipe %s runs as printed and prints what the page says', async (name) => {
  const script = `${block(page, 'setup')}\n${block(page, name)}`;
  const ran = await runBash(script, { PATH: process.env.PATH, HOME: dir, LOOM_URL: api.baseUrl }, dir);
  expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
  expect(ran.stdout.trim().split('\n').pop()).toBe(promised(page, name));
  if (name === 'nightly') {
    expect(ran.stdout).toMatch(/^next fire time: \d{4}-\d\d-\d\dT0[01]:00:00\.000Z$/m);
    const email = /recipes-[^"\s]+@example\.com/.exec((await mailsToRecent()).find((m) => m.subject === 'Nightly report')?.to.join(' ') ?? '');
    expect(email).not.toBeNull();
  }
}, 150_000);

/** The catcher's latest messages (any recipient): the nightly recipe's address is made up inside its script. */
async function mailsToRecent(): Promise<{ subject: string; to: string[] }[]> {
  const res = await fetch(process.env.MAIL_API_URL ?? 'http://127.0.0.1:8025/api/messages');
  return (await res.json()) as { subject: string; to: string[] }[];
}
