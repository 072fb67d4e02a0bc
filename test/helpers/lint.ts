import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Lint tests plant code at a path of the repository and read which rules fire (eslint.config.mjs as it is). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

// ESLint loads its flat config with a dynamic import, which Jest's CommonJS runtime cannot do: lint in a child.
const LINT = `
const { ESLint } = require('eslint');
const cases = JSON.parse(process.argv[1]);
(async () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const out = [];
  for (const [file, code] of cases) {
    const [result] = await eslint.lintText(code, { filePath: require('path').join(process.cwd(), file) });
    out.push(result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message })));
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

/** The messages for each [file, code] case, in order (one child process for all of them). */
export function lintCases(cases: readonly (readonly [string, string])[]): LintMessage[][] {
  const out = execFileSync(process.execPath, ['-e', LINT, JSON.stringify(cases)], { cwd: REPO_ROOT, encoding: 'utf8' });
  return JSON.parse(out) as LintMessage[][];
}
