import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from '../setup/state';

/**
 * Headless Chromium from Debian's `chromium` package (scripts/ensure-chromium installs it), driven by
 * playwright-core: no browser download. Tests call `describeWithBrowser` so that a machine without the binary skips
 * them with a clear message instead of failing obscurely.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
export const SCREENSHOT_DIR = path.join(REPO_ROOT, '.data', 'screenshots');

export const describeWithBrowser: jest.Describe = hasChromium
  ? describe
  : (((name: string, fn: () => void) =>
      describe.skip(`${name} (skipped: ${CHROMIUM_PATH} is missing; run scripts/ensure-chromium)`, fn)) as jest.Describe);

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  // playwright's launch() gives every browser a fresh temporary profile (it refuses --user-data-dir).
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/** Where a test saves its screenshot (the folder is created). */
export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, name);
}
