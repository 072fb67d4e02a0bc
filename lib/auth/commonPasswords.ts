import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The list of common passwords shipped with the project (lib/auth/common-passwords.txt, lower-case, one a line).
 * Read on first use, not at import. The compiled build (dist/lib/auth) finds it in the source tree.
 */
const CANDIDATES = [
  path.join(__dirname, 'common-passwords.txt'),
  path.resolve(__dirname, '..', '..', '..', 'lib', 'auth', 'common-passwords.txt'),
];

let cached: ReadonlySet<string> | undefined;

export function commonPasswords(): ReadonlySet<string> {
  if (cached) return cached;
  const file = CANDIDATES.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`common password list not found (looked in ${CANDIDATES.join(', ')})`);
  const words = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
  cached = new Set(words);
  return cached;
}
