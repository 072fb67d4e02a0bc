import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithBrowser, launchBrowser, screenshotPath } from '../helpers/browser';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * The README's quickstart, run exactly as printed: the fenced `sh` block(s) between the quickstart markers go to
 * bash unchanged, with only LOOM_URL pointing them at this test's API (whose runs this test run's worker executes).
 */

const README = join(__dirname, '..', '..', 'README.md');

/** The fenced `sh` blocks between `<!-- quickstart:start -->` and `<!-- quickstart:end -->`, joined. */
function quickstartScript(readme: string): string {
  const section = /<!-- quickstart:start -->([\s\S]*?)<!-- quickstart:end -->/.exec(readme);
  if (!section) throw new Error('README.md has no quickstart markers');
  const blocks = [...section[1]!.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  if (blocks.length === 0) throw new Error('the quickstart section has no ```sh block');
  return blocks.join('\n');
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** bash with -e and pipefail, so any failing curl (--fail-with-body) or missing field stops the script. */
function runBash(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile('bash', ['-eo', 'pipefail', '-c', script], { env, cwd, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let api: TestApi;
let dir: string;
/** The first run's picture link as printed, for the browser check. */
let printedPicture: string | undefined;

beforeAll(async () => {
  api = await startApi();
  dir = mkdtempSync(join(tmpdir(), 'loom-readme-quickstart-'));
});

afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the README quickstart, run as printed, finishes a run and prints a picture link that answers HTML', async () => {
  const script = quickstartScript(readFileSync(README, 'utf8'));
  // A clean environment, as on a fresh shell: no token or ids carried over, only PATH, HOME and the API's URL.
  const env = { PATH: process.env.PATH, HOME: dir, LOOM_URL: api.baseUrl };

  const first = await runBash(script, env, dir);
  expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
  expect(first.stdout).toMatch(/^status: completed$/m);
  expect(first.stdout).toContain('"greeting":"Hello, Loom!"');

  const picture = /^picture: (\S+)$/m.exec(first.stdout)?.[1];
  expect(picture).toBeDefined();
  printedPicture = picture;
  const link = new URL(picture!);
  expect(link.hash).toMatch(/^#token=[\w-]+\.[\w-]+\.[\w-]+$/);
  // The link is built on SERVICE_PUBLIC_URL; this in-process API listens on a random port, so ask it for the path.
  expect(picture!.startsWith(`${api.config.http.publicUrl.replace(/\/+$/, '')}/ui/workflows/`)).toBe(true);
  const page = await fetch(`${api.baseUrl}${link.pathname}${link.search}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await page.text()).toMatch(/<html/i);

  // A second paste works too: a new e-mail, a new organization, a new run.
  const second = await runBash(script, env, dir);
  expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' });
  expect(second.stdout).toMatch(/^status: completed$/m);
  expect(/^picture: (\S+)$/m.exec(second.stdout)?.[1]).not.toBe(picture);
}, 180_000);

/** The printed link, served by this test's API (same path and #token=), as a person would open it. */
function servedLink(printed: string): string {
  const link = new URL(printed);
  return `${api.baseUrl}${link.pathname}${link.search}${link.hash}`;
}

describeWithBrowser('the printed picture link in Chromium', () => {
  test('shows the finished run with its greet node completed', async () => {
    expect(printedPicture).toBeDefined();
    const browser = await launchBrowser();
    try {
      const page = await browser.browser.newPage({ viewport: { width: 1000, height: 500 } });
      await page.goto(servedLink(printedPicture!));
      await page.waitForSelector('body[data-run-status="completed"]');
      await page.waitForSelector('#picture g.node[data-node-id="greet"][data-status="completed"]');
      await page.screenshot({ path: screenshotPath('readme-quickstart-picture.png') });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
