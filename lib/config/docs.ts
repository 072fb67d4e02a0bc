import { keyDocs, type KeyDoc } from './settings';
import { spec } from './spec';

/**
 * The configuration's documentation, written from the keys' docs (lib/config/keys/): the README's configuration
 * table and `.env.example`. scripts/generate-config-docs.ts writes both; test/unit/configKeys.test.ts checks that
 * the files say what this renders.
 */

/** The heading `.env.example` gives each section of the spec (sections in a row with the same heading share it). */
const SECTION_TITLES: Record<string, string> = {
  '': 'General',
  http: 'API',
  jwt: 'Auth',
  auth: 'Auth',
  rateLimits: 'Rate limits',
  organizations: 'Organizations',
  database: 'PostgreSQL',
  temporal: 'Temporal',
  runs: 'Workflow runs (docs/runs.md)',
  runAdmission: 'Workflow runs (docs/runs.md)',
  runWait: 'Workflow runs (docs/runs.md)',
  minio: 'MinIO (the loomadmin defaults are for development: NODE_ENV=production refuses them)',
  mail: 'Mail (SMTP; scripts/services runs a local catcher with an HTTP API on 8025)',
  outbound: 'Outbound policy (docs/security.md#outbound-policy)',
  tools: 'Workflow tools (docs/workflows.md, docs/adding-a-tool.md)',
  metrics: 'Metrics (Prometheus text)',
  worker: 'Worker',
  content: 'Content: upload limit, storage quota overrides, processing, embeddings, vectors',
  triggers: 'Triggers, events and outgoing webhooks (docs/triggers.md)',
};

export const README_TABLE_START = '<!-- configuration table: generated from lib/config/keys/ by `npm run generate:config-docs` -->';
export const README_TABLE_END = '<!-- end of the generated configuration table -->';

const ENV_WIDTH = 118;

interface DocumentedKey {
  env: string;
  section: string;
  doc: KeyDoc;
}

function titleOf(section: string): string {
  const title = SECTION_TITLES[section];
  if (title === undefined) throw new Error(`lib/config/docs.ts: no title for the configuration section "${section}"`);
  return title;
}

/** `text` as `# ` comment lines of at most ENV_WIDTH characters, broken at spaces. */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > ENV_WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line !== '#') lines.push(line);
  return lines;
}

/** `.env.example`: every key in spec order under its section's heading, with its example value and note. */
export function renderEnvExample(keys: readonly DocumentedKey[] = keyDocs(spec)): string {
  const out = [
    '# Copy to .env (scripts/up does this for you and generates SERVICE_JWT_SECRET). Empty values keep the defaults.',
    '# Generated from lib/config/keys/ by `npm run generate:config-docs`: change a key\'s doc there, not here.',
  ];
  let title: string | null = null;
  for (const { env, section, doc } of keys) {
    if (titleOf(section) !== title) {
      title = titleOf(section);
      out.push('', `# ${title}`);
    }
    if (doc.note) out.push(...commentLines(doc.note));
    out.push(`${env}=${doc.example ?? ''}`);
  }
  return `${out.join('\n')}\n`;
}

const defaultOf = (doc: KeyDoc): string => doc.default ?? (doc.example ? `\`${doc.example}\`` : '(unset)');

/**
 * The README's table: one row per run of neighbouring keys of one section with the same meaning (their names and
 * defaults joined by ` / `, one default when they all share it).
 */
export function renderReadmeTable(keys: readonly DocumentedKey[] = keyDocs(spec)): string {
  const rows: DocumentedKey[][] = [];
  for (const key of keys) {
    const last = rows[rows.length - 1];
    if (last && last[0]!.section === key.section && last[0]!.doc.meaning === key.doc.meaning) last.push(key);
    else rows.push([key]);
  }
  const lines = rows.map((row) => {
    const defaults = row.map((key) => defaultOf(key.doc));
    const shown = new Set(defaults).size === 1 ? defaults[0]! : defaults.join(' / ');
    return `| ${row.map((key) => `\`${key.env}\``).join(' / ')} | ${shown} | ${row[0]!.doc.meaning} |`;
  });
  return [README_TABLE_START, '| Key | Default | Meaning |', '|---|---|---|', ...lines, README_TABLE_END].join('\n');
}

/** The README with its configuration table replaced by `table`; throws when the markers are missing. */
export function withReadmeTable(readme: string, table: string = renderReadmeTable()): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md: the configuration table markers are missing');
  return readme.slice(0, start) + table + readme.slice(end + README_TABLE_END.length);
}
