import { PERMISSIONS, ROLE_RANK, ROLES, type Role } from '../lib/permissions';

/**
 * The pure half of `npm run docs:endpoints` (scripts/docs-endpoints.ts): OpenAPI document → one Markdown table of
 * endpoints per domain doc → the text between the markers of that doc. No I/O here, so
 * test/unit/docsEndpoints.test.ts can run the same steps in memory and compare with the committed docs.
 *
 * It reads the built document, not the route declarations, because the document is the public description: what a
 * table says is then exactly what `/openapi.json` says.
 */

export const START_MARKER = '<!-- endpoints:start -->';
export const END_MARKER = '<!-- endpoints:end -->';

/**
 * Which doc an operation belongs to, by its first tag (the primary one: `GET /api/auth/security-events` is tagged
 * `auth` and `audit` and belongs to auth.md). A tag missing here leaves its operations in no doc, which fails the
 * script and the test, so a new tag has to be given a home.
 */
export const DOC_OF_TAG: Readonly<Record<string, string>> = {
  auth: 'docs/auth.md',
  // the HTML pages that e-mailed links open: auth.md#links-in-e-mails describes them
  'account pages': 'docs/auth.md',
  organizations: 'docs/organizations.md',
  members: 'docs/organizations.md',
  invitations: 'docs/organizations.md',
  settings: 'docs/organizations.md',
  'api-keys': 'docs/organizations.md',
  audit: 'docs/organizations.md',
  billing: 'docs/organizations.md',
  workflows: 'docs/workflows.md',
  tools: 'docs/workflows.md',
  // webhook ingress, trigger state, approvals; `webhooks` is the outgoing webhooks' delivery log (triggers.md too)
  triggers: 'docs/triggers.md',
  webhooks: 'docs/triggers.md',
  events: 'docs/events.md',
  runs: 'docs/runs.md',
  'dead-letters': 'docs/runs.md',
  approvals: 'docs/runs.md',
  'circuit-breakers': 'docs/runs.md',
  content: 'docs/content.md',
  secrets: 'docs/secrets.md',
  system: 'docs/operating.md',
};

/** Every doc that carries a table, in a fixed order. */
export const ENDPOINT_DOCS: readonly string[] = [...new Set(Object.values(DOC_OF_TAG))].sort();

export interface EndpointRow {
  method: string;
  path: string;
  who: string;
  requestBody: string;
  success: string;
}

export interface EndpointTables {
  /** Rows per doc (every doc of ENDPOINT_DOCS, possibly with no rows), sorted by path, then method. */
  rowsByDoc: Map<string, EndpointRow[]>;
  /** `METHOD /path (tags)` of each operation that no doc takes. */
  unmapped: string[];
}

// The document is JSON from buildDocument(); these narrow it as far as the tables need, and no further.
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectAt = (value: Json, key: string): Json => (isObject(value[key]) ? (value[key] as Json) : {});

/** The conventional order of methods on one path; anything else sorts after them, alphabetically. */
const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];
const HTTP_METHODS = new Set([...METHOD_ORDER, 'head', 'options', 'trace']);

function methodRank(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
}

// Code-unit comparison, not localeCompare: the order must not depend on the machine's locale.
const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function endpointTables(document: Json): EndpointTables {
  const rowsByDoc = new Map<string, EndpointRow[]>(ENDPOINT_DOCS.map((doc) => [doc, []]));
  const unmapped: string[] = [];
  for (const [path, item] of Object.entries(objectAt(document, 'paths'))) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      // A path item also holds `parameters`, `summary`, ...: only its HTTP methods are operations.
      if (!HTTP_METHODS.has(method) || !isObject(operation)) continue;
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [];
      // hasOwn: a tag such as `constructor` must not find Object.prototype's member.
      const doc = tags.length > 0 && Object.hasOwn(DOC_OF_TAG, tags[0]) ? DOC_OF_TAG[tags[0]] : undefined;
      if (!doc) {
        unmapped.push(`${method.toUpperCase()} ${path} (tags: ${tags.length > 0 ? tags.join(', ') : 'none'})`);
        continue;
      }
      rowsByDoc.get(doc)?.push({
        method: method.toUpperCase(),
        path,
        who: whoOf(operation),
        requestBody: requestBodyOf(operation, document),
        success: successOf(operation),
      });
    }
  }
  for (const rows of rowsByDoc.values()) {
    rows.sort(
      (a, b) =>
        compareStrings(a.path, b.path) ||
        methodRank(a.method.toLowerCase()) - methodRank(b.method.toLowerCase()) ||
        compareStrings(a.method, b.method),
    );
  }
  return { rowsByDoc, unmapped };
}

/**
 * Who may call an operation, from what api/http/openapi.ts writes: `security: []` for `auth: 'public'`, bearer only
 * for `auth: 'user'`, bearer or API key for `auth: 'org'`, whose permission is `x-permission`.
 */
function whoOf(operation: Json): string {
  const security = Array.isArray(operation.security) ? operation.security.filter(isObject) : [];
  if (security.length === 0) return 'public';
  if (!security.some((requirement) => 'apiKeyHeader' in requirement)) return 'signed in';
  const permission = operation['x-permission'];
  if (typeof permission !== 'string') return 'any member';
  if (!Object.hasOwn(PERMISSIONS, permission)) throw new Error(`${String(operation.operationId)}: unknown permission ${permission}`);
  return `${rolesInWords(PERMISSIONS[permission as keyof typeof PERMISSIONS])} (\`${permission}\`)`;
}

/** `member+` when the roles are a role and every role above it (all of lib/permissions.ts today), else a list. */
export function rolesInWords(roles: readonly Role[]): string {
  if (roles.length === 0) return 'nobody';
  const lowest = roles.reduce((low, role) => (ROLE_RANK[role] < ROLE_RANK[low] ? role : low));
  const atLeast = ROLES.filter((role) => ROLE_RANK[role] >= ROLE_RANK[lowest]);
  const isUpwardClosed = atLeast.length === new Set(roles).size && atLeast.every((role) => roles.includes(role));
  if (!isUpwardClosed) return [...roles].sort((a, b) => ROLE_RANK[b] - ROLE_RANK[a]).join(', ');
  return atLeast.length === 1 ? lowest : `${lowest}+`;
}

function successOf(operation: Json): string {
  const statuses = Object.keys(objectAt(operation, 'responses'))
    .filter((status) => /^[123]\d\d$/.test(status))
    .sort((a, b) => Number(a) - Number(b));
  const summary = typeof operation.summary === 'string' ? operation.summary : '';
  return [statuses.join(', ') || '?', summary].filter(Boolean).join(': ');
}

const DASH = '—';

function requestBodyOf(operation: Json, document: Json): string {
  if (!isObject(operation.requestBody)) return DASH;
  const content = objectAt(operation.requestBody, 'content');
  const types = Object.keys(content);
  if (types.length === 0) return DASH;
  if (types.includes('multipart/form-data')) {
    return `multipart: ${fieldNames(objectAt(objectAt(content, 'multipart/form-data'), 'schema'), document)}`;
  }
  const type = types.includes('application/json') ? 'application/json' : types[0];
  const media = objectAt(content, type);
  const example = firstExample(media, document);
  const shown = code(example.found ? compactJson(example.value) : fieldNames(objectAt(media, 'schema'), document));
  if (type !== 'application/json') return `${type}: ${shown}`;
  return types.includes('application/yaml') ? `${shown} (JSON or YAML)` : shown;
}

/** The media type's first example (openapiExamples.ts puts the most telling one first), resolving a `$ref`. */
function firstExample(media: Json, document: Json): { found: true; value: unknown } | { found: false } {
  if ('example' in media) return { found: true, value: media.example };
  const first = Object.values(objectAt(media, 'examples'))[0];
  if (!isObject(first)) return { found: false };
  const example = resolveRef(first, document);
  return 'value' in example ? { found: true, value: example.value } : { found: false };
}

function resolveRef(node: Json, document: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  let target: unknown = document;
  for (const part of ref.slice(2).split('/')) target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isObject(target) ? target : node;
}

/** `file, title?, tags?`: the top-level fields of an object schema, `?` marking the optional ones. */
function fieldNames(schema: Json, document: Json): string {
  const resolved = resolveRef(schema, document);
  const required = new Set(Array.isArray(resolved.required) ? resolved.required : []);
  const names = Object.keys(objectAt(resolved, 'properties')).map((name) => (required.has(name) ? name : `${name}?`));
  return names.length > 0 ? names.join(', ') : 'a body (see /openapi.json)';
}

/** Longest example shown whole; a longer one is shown with less detail (nested values folded, strings cut). */
export const EXAMPLE_WIDTH = 100;

/**
 * One line of JSON, the most detailed rendering that fits EXAMPLE_WIDTH: whole, then nested values folded below two
 * levels, then below one level, then with short strings too. Fields are never dropped: the keys are what a reader
 * looks for, so the least detailed rendering may be wider than EXAMPLE_WIDTH.
 */
export function compactJson(value: unknown): string {
  const attempts = [
    { depth: Infinity, stringWidth: Infinity },
    { depth: 2, stringWidth: 32 },
    { depth: 1, stringWidth: 32 },
  ];
  for (const attempt of attempts) {
    const text = renderJson(value, attempt.depth, attempt.stringWidth);
    if (text.length <= EXAMPLE_WIDTH) return text;
  }
  return renderJson(value, 1, 16);
}

function renderJson(value: unknown, depth: number, stringWidth: number): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > stringWidth ? `${value.slice(0, Math.max(stringWidth - 3, 1))}...` : value);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (depth <= 0) return '[...]';
    return `[${value.map((item) => renderJson(item, depth - 1, stringWidth)).join(', ')}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    if (depth <= 0) return '{...}';
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${renderJson(item, depth - 1, stringWidth)}`).join(', ')}}`;
  }
  // numbers, booleans, null; `undefined` cannot occur in a JSON document but must not print as nothing
  return JSON.stringify(value) ?? 'null';
}

/** Inline code that survives any content: a backtick inside needs a longer fence (CommonMark code spans). */
function code(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return longestRun > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/**
 * A table cell: one line, pipes escaped. GitHub-flavoured Markdown splits rows on `|` before it parses code spans,
 * so a pipe needs its backslash inside code too (where it then renders as a bare `|`). Other backslashes stay:
 * inside code they are literal (the `\"` of a JSON string must show as it is).
 */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** What the table's words mean, saying only what occurs in these rows. */
function legendOf(rows: readonly EndpointRow[]): string {
  const parts: string[] = [];
  if (rows.some((row) => row.who === 'public')) {
    // Webhook ingress is public to Loom's sign-in but not open: each trigger checks its own credentials.
    const hooks = rows.some((row) => row.who === 'public' && row.path.startsWith('/api/hooks/'));
    parts.push(`*public* needs no sign-in${hooks ? " (a webhook under `/api/hooks` checks its own trigger's authentication)" : ''}`);
  }
  if (rows.some((row) => row.who === 'signed in')) {
    parts.push('*signed in* needs the bearer access token of a session (API keys are refused)');
  }
  if (rows.some((row) => row.who.includes('(`'))) {
    parts.push(
      'a role with *+* needs that role or a higher one (owner > admin > member > viewer) in the organization the ' +
        'request acts on, signed in or by an API key of that role; the permission checked is in brackets ' +
        '(`lib/permissions.ts`)',
    );
  }
  return (
    `${parts.length > 0 ? `Who: ${parts.join('; ')}. ` : ''}Request body: the first example of the OpenAPI document, ` +
    'shortened. Full schemas and answers: `/openapi.json`, `GET /docs`.'
  );
}

/** The text between a doc's markers (without them): a note that it is generated, the table and its legend. */
export function renderSection(rows: readonly EndpointRow[]): string {
  const lines = [
    '<!-- Generated by `npm run docs:endpoints` (scripts/docs-endpoints.ts) from the route declarations: edit those, not this table. -->',
    '',
  ];
  if (rows.length === 0) {
    lines.push('No endpoints.');
  } else {
    lines.push('| Method | Path | Who | Request body | Success |', '|---|---|---|---|---|');
    for (const row of rows) {
      const cells = [row.method, code(row.path), row.who, row.requestBody, row.success].map(cell);
      lines.push(`| ${cells.join(' | ')} |`);
    }
  }
  lines.push('', ...wrap(legendOf(rows), 116));
  return lines.join('\n');
}

/**
 * Words into lines of at most `width` characters, as the docs' prose is wrapped. A code span counts as one word, so
 * none is broken over two lines; a word longer than `width` gets a line of its own.
 */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.match(/(?:`[^`]*`|[^\s`])+/g) ?? []) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The doc with `section` between its markers. Throws when the doc lacks them, has them twice or in the wrong order:
 * where a table goes is decided once, by hand, under the doc's `## Endpoints` heading.
 */
export function replaceMarkedSection(text: string, section: string): string {
  const start = text.indexOf(START_MARKER);
  const end = text.indexOf(END_MARKER);
  if (start === -1 || end === -1) throw new Error(`no ${START_MARKER} ... ${END_MARKER} markers`);
  if (text.indexOf(START_MARKER, start + 1) !== -1 || text.indexOf(END_MARKER, end + 1) !== -1) {
    throw new Error('the endpoint markers appear more than once');
  }
  if (end < start) throw new Error(`${END_MARKER} comes before ${START_MARKER}`);
  return `${text.slice(0, start)}${START_MARKER}\n${section}\n${text.slice(end)}`;
}
