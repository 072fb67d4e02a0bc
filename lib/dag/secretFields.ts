import type { Problem } from './problems';
import { secretReferenceSpans } from './secretReferences';

/**
 * Where a tool accepts `{{secret.NAME}}`: the fields its descriptor declares in `secretFields` (credentials,
 * credential headers, signing secrets, a URL's user information), and nowhere else. A value placed anywhere else
 * could be echoed back: an expression (`$base64encode("{{secret.X}}")` in json_transform), a body, a URL's path,
 * a prompt. Checked at save, at validate and at tool test (problems naming the field), and again in the activity
 * before any value is read (activities/runs/secretReferences.ts), which fills values into declared fields only.
 * Pure: bundled into workflow code with the rest of lib/dag.
 *
 * A field is a dot path of config keys, `*` standing for any one key or index (`headers.*`). The suffix
 * `:userinfo` accepts references only inside the user information of a URL (`postgres://app:{{secret.PW}}@host/db`):
 * the value is inserted percent-encoded there, so it can neither move the connection to another host nor land in
 * the path or the parameters, which error messages may quote.
 */
export const SECRET_FIELD = /^(\*|[A-Za-z0-9_-]{1,64})(\.(\*|[A-Za-z0-9_-]{1,64})){0,7}(:userinfo)?$/;

export interface SecretField {
  segments: string[];
  /** `value`: anywhere in the string; `userinfo`: only in a URL's user information, percent-encoded */
  part: 'value' | 'userinfo';
}

export function parseSecretField(field: string): SecretField | null {
  if (!SECRET_FIELD.test(field)) return null;
  const userinfo = field.endsWith(':userinfo');
  return { segments: (userinfo ? field.slice(0, -':userinfo'.length) : field).split('.'), part: userinfo ? 'userinfo' : 'value' };
}

/** The declared field a string at `segments` (keys and indexes from the config's root) belongs to, if any. */
export function secretFieldAt(fields: readonly string[], segments: readonly (string | number)[]): SecretField | null {
  for (const field of fields) {
    const parsed = parseSecretField(field);
    if (!parsed || parsed.segments.length !== segments.length) continue;
    if (parsed.segments.every((s, i) => s === '*' || s === String(segments[i]))) return parsed;
  }
  return null;
}

/** `scheme://` then user information (no `/ ? # @ \`) up to the reference... */
const BEFORE_USERINFO = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\\]*$/;
/** ...and after it, more user information up to the `@` that ends it. */
const AFTER_USERINFO = /^[^/?#@\\]*@/;

/** Whether `text.slice(start, end)` lies inside the user information of the URL `text` starts with. */
export function inUserinfo(text: string, start: number, end: number): boolean {
  return BEFORE_USERINFO.test(text.slice(0, start)) && AFTER_USERINFO.test(text.slice(end));
}

/** Deep enough for any config a request can carry (bodies nest at most 256 levels, lib/jsonDepth.ts). */
const MAX_DEPTH = 300;

/**
 * Every string of a JSON value (not keys) with the keys and indexes leading to it. One path array is pushed and
 * popped on the way (copying it per value would cost depth x size on the largest configs): `visit` must not keep it.
 */
export function walkStringsAt(
  value: unknown,
  visit: (text: string, segments: readonly (string | number)[]) => void,
  segments: (string | number)[] = [],
): void {
  if (typeof value === 'string') visit(value, segments);
  else if (segments.length >= MAX_DEPTH || !value || typeof value !== 'object') return;
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      segments.push(i);
      walkStringsAt(value[i], visit, segments);
      segments.pop();
    }
  } else {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      segments.push(k);
      walkStringsAt(v, visit, segments);
      segments.pop();
    }
  }
}

/** `headers.x-api-key`, `messages[0].content`: how problems name a place. */
export function pathOf(basePath: string, segments: readonly (string | number)[]): string {
  return segments.reduce<string>((path, s) => (typeof s === 'number' ? `${path}[${s}]` : path ? `${path}.${s}` : s), basePath);
}

/** What the tool accepts, for messages: `headers.*, url (user information only)`. */
export function describeSecretFields(toolId: string, fields: readonly string[]): string {
  const valid = fields.map(parseSecretField).filter((f): f is SecretField => f !== null);
  if (!valid.length) return `the ${toolId} tool accepts no secret references`;
  const names = valid.map((f) => (f.part === 'userinfo' ? `${f.segments.join('.')} (in the URL's user information: scheme://user:{{secret.NAME}}@host)` : f.segments.join('.')));
  return `the ${toolId} tool accepts secret references only in ${names.join(', ')}`;
}

/**
 * Every secret reference of a tool config outside the tool's declared secret fields, one problem per string,
 * `basePath` starting each path (`dag.nodes.fix.config.config`, `body.config`).
 */
export function secretFieldProblems(toolId: string, fields: readonly string[], config: unknown, basePath: string): Problem[] {
  const problems: Problem[] = [];
  let problem: string | undefined;
  walkStringsAt(config, (text, segments) => {
    if (!text.includes('{{')) return;
    const spans = secretReferenceSpans(text);
    if (!spans.length) return;
    const field = secretFieldAt(fields, segments);
    const placed = field !== null && (field.part === 'value' || spans.every((s) => inUserinfo(text, s.start, s.end)));
    if (placed) return;
    problem ??= `secret references are not accepted in this field (a value here could be echoed back); ${describeSecretFields(toolId, fields)}`;
    problems.push({ path: pathOf(basePath, segments), problem });
  });
  return problems;
}
