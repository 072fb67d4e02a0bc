/**
 * Lints the OpenAPI document with Redocly CLI (@redocly/cli, rules in redocly.yaml: the recommended set, stricter
 * on tags and examples). Passes only with 0 errors and 0 warnings. scripts/test runs it as a step.
 *
 *   npm run lint:openapi                   # the document the route declarations produce now
 *   tsx scripts/lint-openapi.ts --file F   # a document already written to F (test/unit/openapiLint.test.ts plants
 *                                          # problems in one this way)
 *
 * Nothing external is contacted: the document is built in-process (as scripts/generate-client.ts does) and
 * Redocly's telemetry is off.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDocument } from './generate-client';

const ROOT = path.resolve(__dirname, '..');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location?: { pointer?: string }[];
}

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Problem[];
}

export function lintOpenApiFile(file: string): { ok: boolean; report: LintReport | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    },
  );
  let report: LintReport | null = null;
  try {
    report = JSON.parse(result.stdout) as LintReport;
  } catch {
    return { ok: false, report: null, output: `redocly lint gave no report (exit ${result.status}):\n${result.stdout}\n${result.stderr}` };
  }
  const lines = report.problems.map(
    (p) => `${p.severity.padEnd(7)} ${p.ruleId}  ${decodeURIComponent(p.location?.[0]?.pointer ?? '')}\n        ${p.message}`,
  );
  const { errors, warnings } = report.totals;
  lines.push(`OpenAPI lint (redocly.yaml: recommended and stricter): ${errors} errors, ${warnings} warnings`);
  return { ok: errors === 0 && warnings === 0, report, output: lines.join('\n') };
}

function main(): void {
  const fileIndex = process.argv.indexOf('--file');
  let file: string;
  let dir: string | null = null;
  if (fileIndex > 0) {
    file = path.resolve(process.argv[fileIndex + 1] ?? '');
  } else {
    dir = mkdtempSync(path.join(os.tmpdir(), 'loom-openapi-'));
    file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildDocument(), null, 2));
  }
  try {
    const { ok, output } = lintOpenApiFile(file);
    console.log(output);
    process.exitCode = ok ? 0 : 1;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  // Domains may hold timers (usage meter flushes); this is a one-shot command.
  process.exit(process.exitCode ?? 0);
}

if (require.main === module) main();
