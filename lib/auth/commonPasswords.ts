import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The list of common passwords shipped with the project (lib/auth/common-passwords.txt, lower-case, one a line).
 * Read on first use, not at import. The build (scripts/build.ts) copies it next to the compiled module.
 */
const FILE = path.join(__dirname, 'common-passwords.txt');

let cached: ReadonlySet<string> | undefined;

export function commonPasswords(): ReadonlySet<string> {
  if (cached) return cached;
  if (!existsSync(FILE)) throw new Error(`common password list not found at ${FILE}`);
  const words = readFileSync(FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
  cached = new Set(words);
  return cached;
}
