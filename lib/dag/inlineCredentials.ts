import type { StoredDefinition } from './model';
import { nodePath, type Problem } from './problems';
import { secretNamesIn } from './secretReferences';

/**
 * Credentials written straight into a node config (a password in a connection string, an `Authorization` header,
 * an `api_key` field) would be stored in plain text and shown to every viewer of the workflow. Saving refuses them
 * (the author stores the value as an organization secret and writes `{{secret.NAME}}`), and reads of definitions
 * stored before that rule replace them with `****`. A value computed by a `${...}` template or holding a secret
 * reference is not a literal credential. Pure (lib/dag is bundled into workflow code).
 */

export const REDACTED = '****';

const ADVICE = 'store it as an organization secret (PUT /api/v1/secrets/{name}) and write {{secret.NAME}} instead';

/** Header names (lower case, letters and digits only) that carry credentials, by part of the name. */
const CREDENTIAL_HEADER_PARTS = ['authorization', 'apikey', 'token', 'secret', 'password', 'cookie', 'credential', 'subscriptionkey'];
/** Config keys (lower case, letters and digits only) whose value is a credential, by the end of the name. */
const CREDENTIAL_KEY_ENDINGS = ['password', 'passwd', 'passphrase', 'secret', 'apikey', 'token', 'privatekey', 'secretkey', 'accesskey', 'credentials', 'authorization'];
const CREDENTIAL_KEYS_EXACT = new Set(['pwd', 'cookie']);

/** A character of a URL scheme after its first letter (RFC 3986: letters, digits, `+`, `-`, `.`). */
const isSchemeChar = (c: string): boolean => /[a-z0-9+.-]/i.test(c);
const isWordChar = (c: string): boolean => /\w/.test(c);
/** Characters that end the user part of a URL's userinfo (`:` ends it too), and the password part. */
const ENDS_PASSWORD = /[\s/?#@]/;

interface UrlPassword {
  /** index of the scheme's first letter, and of the character after the `@` */
  start: number;
  end: number;
  scheme: string;
  user: string;
  password: string;
}

/**
 * `scheme://user:password@` anywhere in a string (a scheme starts with a letter at a word boundary). Found from each
 * `://` instead of by a regex: a pattern that starts with the scheme's run of characters started a scan at every
 * word boundary of a long run like `a.a.a.…`, quadratic in it (40,000 characters: 1 s; a 1 MB request body:
 * minutes of the API's event loop). Here each character is looked at a bounded number of times: the walk back over
 * the scheme stops at the previous `://` (its `:` and `/` are no scheme characters), and the walk forward over the
 * userinfo at the next one (its `/`).
 */
function* urlPasswords(text: string): Generator<UrlPassword> {
  let from = 0;
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', Math.max(from, at + 3))) {
    let runStart = at;
    while (runStart > from && isSchemeChar(text[runStart - 1]!)) runStart -= 1;
    let start = -1;
    for (let i = runStart; i < at && start === -1; i += 1) {
      if (/[a-z]/i.test(text[i]!) && (i === 0 || !isWordChar(text[i - 1]!))) start = i;
    }
    if (start === -1) continue;
    let colon = at + 3;
    while (colon < text.length && text[colon] !== ':' && !ENDS_PASSWORD.test(text[colon]!)) colon += 1;
    if (text[colon] !== ':') continue;
    let atSign = colon + 1;
    while (atSign < text.length && !ENDS_PASSWORD.test(text[atSign]!)) atSign += 1;
    if (text[atSign] !== '@') continue;
    yield { start, end: atSign + 1, scheme: text.slice(start, at + 3), user: text.slice(at + 3, colon), password: text.slice(colon + 1, atSign) };
    from = atSign + 1;
  }
}

/** `password=...` in a query string, a libpq keyword string (`host=x password=y`) or an ODBC string (`Pwd=y;`). */
const CREDENTIAL_PARAM =
  /(^|[?&;\s])((?:ssl)?password|passwd|pwd|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|secret|token)=([^&;\s#]*)/gi;

const normalize = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

export function isCredentialHeader(name: string): boolean {
  const n = normalize(name);
  return CREDENTIAL_HEADER_PARTS.some((part) => n.includes(part));
}

export function isCredentialKey(name: string): boolean {
  const n = normalize(name);
  return CREDENTIAL_KEYS_EXACT.has(n) || CREDENTIAL_KEY_ENDINGS.some((ending) => n.endsWith(ending));
}

/** A value computed at run time (template) or taken from the secrets store is not a literal credential. */
function isLiteral(text: string): boolean {
  if (text.trim() === '') return false;
  return !text.includes('${') && secretNamesIn(text).length === 0;
}

export interface CredentialScan {
  /** one problem per literal credential, naming the place */
  problems: Problem[];
  /** the value with each literal credential replaced by `****` (the input itself when nothing was found) */
  redacted: unknown;
}

function redactUrlPasswords(text: string, path: string, problems: Problem[]): string {
  let out = '';
  let copied = 0;
  for (const found of urlPasswords(text)) {
    if (!isLiteral(found.password)) continue;
    problems.push({ path, problem: `a password in a connection string or URL: ${ADVICE}` });
    out += `${text.slice(copied, found.start)}${found.scheme}${found.user}:${REDACTED}@`;
    copied = found.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function scanString(text: string, path: string, problems: Problem[]): string {
  let out = redactUrlPasswords(text, path, problems);
  out = out.replace(CREDENTIAL_PARAM, (match, lead: string, name: string, value: string) => {
    if (!isLiteral(value) || value === REDACTED) return match;
    problems.push({ path, problem: `a literal ${name} parameter: ${ADVICE}` });
    return `${lead}${name}=${REDACTED}`;
  });
  return out;
}

function scan(value: unknown, path: string, key: string | null, inHeaders: boolean, problems: Problem[], depth: number): unknown {
  if (depth > 64) return value;
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    const named = key !== null && (inHeaders ? isCredentialHeader(key) : isCredentialKey(key));
    if (named && isLiteral(text)) {
      problems.push({
        path,
        problem: `a literal credential in ${inHeaders ? `the ${key} header` : `"${key}"`}: ${ADVICE}`,
      });
      return REDACTED;
    }
    return typeof value === 'string' ? scanString(value, path, problems) : value;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v, i) => {
      const r = scan(v, `${path}[${i}]`, key, inHeaders, problems, depth + 1);
      changed ||= r !== v;
      return r;
    });
    return changed ? out : value;
  }
  if (value && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const r = scan(v, path ? `${path}.${k}` : k, k, key !== null && normalize(key) === 'headers', problems, depth + 1);
      changed ||= r !== v;
      out[k] = r;
    }
    return changed ? out : value;
  }
  return value;
}

/** Literal credentials in any JSON value (a node's config), paths starting with `basePath`. */
export function scanInlineCredentials(value: unknown, basePath: string): CredentialScan {
  const problems: Problem[] = [];
  const redacted = scan(value, basePath, null, false, problems, 0);
  return { problems, redacted };
}

/**
 * Literal credentials in a stored definition: node configs (tool configs, loop templates, subworkflow inputs) and
 * fallback handler configs. Problem paths follow the validator's (`<dagPath>.nodes.<id>.config...`).
 */
export function scanDefinitionCredentials(definition: StoredDefinition, dagPath = 'dag'): { problems: Problem[]; redacted: StoredDefinition } {
  const problems: Problem[] = [];
  let changed = false;
  const nodes = definition.dag.nodes.map((node, i) => {
    const result = scanInlineCredentials(node.config, `${nodePath(dagPath, node.id, i)}.config`);
    problems.push(...result.problems);
    if (result.redacted === node.config) return node;
    changed = true;
    return { ...node, config: result.redacted as typeof node.config };
  });
  const overrides = definition.errorHandling.node_overrides;
  const redactedOverrides: typeof overrides = {};
  for (const [id, override] of Object.entries(overrides)) {
    if (override.handler_config === undefined) {
      redactedOverrides[id] = override;
      continue;
    }
    const result = scanInlineCredentials(override.handler_config, `error_handling.node_overrides.${id}.handler_config`);
    problems.push(...result.problems);
    changed ||= result.redacted !== override.handler_config;
    redactedOverrides[id] = { ...override, handler_config: result.redacted as typeof override.handler_config };
  }
  if (!changed) return { problems, redacted: definition };
  return {
    problems,
    redacted: {
      ...definition,
      dag: { ...definition.dag, nodes },
      errorHandling: { ...definition.errorHandling, node_overrides: redactedOverrides },
    },
  };
}
