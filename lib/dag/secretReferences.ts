import type { StoredDefinition } from './model';
import { nodePath, type Problem } from './problems';

/**
 * Secret references in node configs: `{{secret.NAME}}`, as a whole string value or inside one (a header value
 * `Bearer {{secret.API_TOKEN}}`, a URL's password `postgres://app:{{secret.DB_PASSWORD}}@db.example.com/app`).
 * The reference is stored and sent to Temporal as written; the worker replaces it with the organization's value
 * only inside the tool activity, right before the tool runs (activities/runs/secretReferences.ts). Pure: bundled
 * into workflow code with the rest of lib/dag.
 */

/** Secret names: an upper-case letter, then upper-case letters, digits and underscores, 64 characters at most. */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
export const SECRET_NAME_RULE = 'an upper-case letter, then up to 63 upper-case letters, digits or underscores';

/** One well-formed reference; spaces inside the braces are allowed (`{{ secret.NAME }}`). */
const REFERENCE = /\{\{\s*secret\.([A-Z][A-Z0-9_]{0,63})\s*\}\}/g;
/** Anything that starts like a reference, to tell a typo (`{{secret.db}}`, `{{secrets.X}}`) from plain text. */
const REFERENCE_START = /\{\{\s*secrets?\b/g;

export interface SecretReference {
  name: string;
  /** where it was found, e.g. `dag.nodes.call.config.config.headers.authorization` */
  path: string;
}

const MAX_DEPTH = 64;

function keyPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

/** Calls `visit` for every string value (not keys) of a JSON value, with its path. */
export function walkStrings(value: unknown, path: string, visit: (text: string, path: string) => void, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => walkStrings(v, keyPath(path, i), visit, depth + 1));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) walkStrings(v, keyPath(path, k), visit, depth + 1);
  }
}

export function secretNamesIn(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((m) => m[1]!);
}

/** Each well-formed reference of a text with where it starts and ends (lib/dag/secretFields.ts places them). */
export function secretReferenceSpans(text: string): { name: string; start: number; end: number }[] {
  // exec on the shared pattern, not matchAll (which copies it per call): checked on every string of a definition.
  const spans: { name: string; start: number; end: number }[] = [];
  REFERENCE.lastIndex = 0;
  for (let m = REFERENCE.exec(text); m; m = REFERENCE.exec(text)) spans.push({ name: m[1]!, start: m.index, end: m.index + m[0].length });
  REFERENCE.lastIndex = 0;
  return spans;
}

/** True when a value holds something that starts like a reference (well-formed or not). */
export function hasSecretReferences(value: unknown): boolean {
  let found = false;
  walkStrings(value, '', (text) => {
    if (!found && text.includes('{{')) found = text.match(REFERENCE_START) !== null;
  });
  return found;
}

/** Every well-formed reference in a value, with the path of the string holding it. */
export function findSecretReferences(value: unknown, basePath: string): SecretReference[] {
  const found: SecretReference[] = [];
  walkStrings(value, basePath, (text, path) => {
    if (text.includes('{{')) for (const name of secretNamesIn(text)) found.push({ name, path });
  });
  return found;
}

/** Malformed references: `{{secret.` not followed by a valid name and `}}`. */
export function secretReferenceProblems(value: unknown, basePath: string): Problem[] {
  const problems: Problem[] = [];
  walkStrings(value, basePath, (text, path) => {
    if (!text.includes('{{')) return;
    const starts = [...text.matchAll(REFERENCE_START)].length;
    if (starts > secretNamesIn(text).length) {
      problems.push({ path, problem: `malformed secret reference: write {{secret.NAME}}, NAME being ${SECRET_NAME_RULE}` });
    }
  });
  return problems;
}

/** References where they cannot be resolved (only tool configs are): each is a problem naming the place. */
export function misplacedSecretReferenceProblems(value: unknown, basePath: string, where: string): Problem[] {
  return findSecretReferences(value, basePath).map((ref) => ({
    path: ref.path,
    problem: `secret references are resolved in tool configs only, not in ${where}`,
  }));
}

/** The text with each reference replaced by `replace(name)`. */
export function replaceSecretReferences(text: string, replace: (name: string) => string): string {
  return text.replace(REFERENCE, (_match, name: string) => replace(name));
}

/** Every reference of a stored definition (node configs, fallback handler configs), paths as the validator's. */
export function definitionSecretReferences(definition: StoredDefinition, dagPath = 'dag'): SecretReference[] {
  const found = definition.dag.nodes.flatMap((node, i) =>
    findSecretReferences(node.config, `${nodePath(dagPath, node.id, i)}.config`),
  );
  for (const [id, override] of Object.entries(definition.errorHandling.node_overrides)) {
    found.push(...findSecretReferences(override.handler_config, `error_handling.node_overrides.${id}.handler_config`));
  }
  return found;
}
