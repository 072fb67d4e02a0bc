import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * The typed client (client/generated/schema.d.ts) is committed; it must match what the route declarations produce
 * now. Regenerates into a temporary folder with the same script and compares.
 */
test('the committed typed client is up to date with the routes (else run `npm run generate:client`)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loom-client-'));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate-client.ts', '--out', dir], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 120_000,
    });
    const fresh = readFileSync(path.join(dir, 'schema.d.ts'), 'utf8');
    const committed = readFileSync(path.join(ROOT, 'client', 'generated', 'schema.d.ts'), 'utf8');
    if (fresh !== committed) {
      throw new Error('client/generated/schema.d.ts is stale: run `npm run generate:client` and commit the result');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
