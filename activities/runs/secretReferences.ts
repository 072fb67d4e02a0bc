import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { readSecretValues } from '../../domain/secrets/queries';
import { describeSecretFields, inUserinfo, pathOf, secretFieldAt, secretFieldProblems } from '../../lib/dag/secretFields';
import { findSecretReferences, replaceSecretReferences } from '../../lib/dag/secretReferences';
import type { ActivityDeps } from '../deps';
import type { ToolDescriptor } from '../../lib/tools/descriptor';
import { InputResolutionError } from './resolve';

/**
 * `{{secret.NAME}}` in a tool's config, resolved inside the activity only (docs/secrets.md). Workflow code, its
 * history and the run's records only ever hold the reference.
 *
 * Before templates are rendered each reference becomes a placeholder carrying a random per-attempt nonce; after
 * rendering the placeholders become the values. So a value is never seen by the template engine, and a template
 * whose result (a run parameter, an earlier node's output) spells `{{secret.NAME}}` resolves to that text, never to
 * the secret. Values are then taken back out of the tool's output and error messages (`redact`).
 *
 * References count only in the fields the tool declares (`secretFields`, lib/dag/secretFields.ts): a config with one
 * elsewhere (a definition stored before the rule, a dead letter replayed) fails with SECRET_NOT_ALLOWED before any
 * value is read, and `fill` puts values into declared fields only (percent-encoded in a URL's user information), so
 * neither a template nor the tool's own expression engine ever holds one.
 */

/** Values shorter than this are not searched for in outputs and errors: they would match unrelated text. */
export const MIN_REDACTED_LENGTH = 4;

export interface ResolvedSecrets {
  /** the tool config with placeholders instead of references */
  config: Record<string, unknown>;
  /** the rendered tool input with the placeholders replaced by the values */
  fill(input: Record<string, unknown>): Record<string, unknown>;
  /** every value (and its URL-encoded form) in a text replaced by its reference */
  redactText(text: string): string;
  /** `redactText` over every string of a JSON value */
  redactValue(value: unknown): unknown;
  /** `redactValue` over a serialized JSON value (kept as it is when no secret was resolved) */
  redactSerialized(bytes: Buffer): Buffer;
}

function mapStrings(value: unknown, fn: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return fn(value);
  if (depth > 64 || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn, depth + 1));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, mapStrings(v, fn, depth + 1)]));
}

const NO_SECRETS: ResolvedSecrets = {
  config: {},
  fill: (input) => input,
  redactText: (text) => text,
  redactValue: (value) => value,
  redactSerialized: (bytes) => bytes,
};

/** The node fails, naming the field; not retryable: the same config fails the same way. */
function notAllowed(tool: Pick<ToolDescriptor, 'id' | 'secretFields'>, paths: string[]): InputResolutionError {
  return new InputResolutionError(
    'SECRET_NOT_ALLOWED',
    `secret reference in ${paths.slice(0, 10).join(', ')}: ${describeSecretFields(tool.id, tool.secretFields ?? [])}; ` +
      'no secret was read. Move the reference into one of those fields and save the workflow again',
  );
}

/** `mapStrings` that knows where each string is (keys and indexes from the root; one array, pushed and popped). */
function mapStringsAt(value: unknown, fn: (text: string, segments: readonly (string | number)[]) => string, segments: (string | number)[] = []): unknown {
  if (typeof value === 'string') return fn(value, segments);
  if (segments.length >= 300 || !value || typeof value !== 'object') return value;
  const at = (key: string | number, v: unknown): unknown => {
    segments.push(key);
    const mapped = mapStringsAt(v, fn, segments);
    segments.pop();
    return mapped;
  };
  if (Array.isArray(value)) return value.map((v, i) => at(i, v));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, at(k, v)]));
}

export async function resolveSecretReferences(
  deps: Pick<ActivityDeps, 'db' | 'config' | 'box'>,
  organizationId: string,
  config: Record<string, unknown>,
  tool: Pick<ToolDescriptor, 'id' | 'secretFields'>,
): Promise<ResolvedSecrets> {
  const misplaced = secretFieldProblems(tool.id, tool.secretFields ?? [], config, '');
  if (misplaced.length) throw notAllowed(tool, misplaced.map((p) => p.path));
  const names = [...new Set(findSecretReferences(config, '').map((r) => r.name))];
  if (names.length === 0) return { ...NO_SECRETS, config };
  const values = await readSecretValues(deps, organizationId, names);
  const missing = names.filter((n) => !values.has(n));
  if (missing.length) {
    throw new InputResolutionError(
      'UNKNOWN_SECRET',
      `the node config references secret${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, not defined in this organization (PUT /api/v1/secrets/{name})`,
    );
  }

  const nonce = randomBytes(12).toString('hex');
  const placeholder = new RegExp(`\\u0000${nonce}:([A-Z][A-Z0-9_]*)\\u0000`, 'g');
  const withPlaceholders = mapStrings(config, (text) => replaceSecretReferences(text, (name) => `\u0000${nonce}:${name}\u0000`));

  const needles: { text: string; name: string }[] = [];
  for (const [name, value] of values) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    needles.push({ text: value, name });
    const encoded = encodeURIComponent(value);
    if (encoded !== value) needles.push({ text: encoded, name });
  }
  needles.sort((a, b) => b.text.length - a.text.length);
  const redactText = (text: string): string =>
    needles.reduce((out, needle) => (out.includes(needle.text) ? out.split(needle.text).join(`{{secret.${needle.name}}}`) : out), text);

  return {
    config: withPlaceholders as Record<string, unknown>,
    fill: (input) =>
      mapStringsAt(input, (text, segments) => {
        if (!text.includes('\u0000')) return text;
        const found = [...text.matchAll(placeholder)];
        if (!found.length) return text;
        // Templates ran on the placeholders; whatever they made of them, a value lands only where declared.
        const field = secretFieldAt(tool.secretFields ?? [], segments);
        const userinfo = field?.part === 'userinfo';
        if (!field || (userinfo && !found.every((m) => inUserinfo(text, m.index, m.index + m[0].length)))) {
          throw notAllowed(tool, [pathOf('', segments)]);
        }
        return text.replace(placeholder, (_m, name: string) => {
          const value = values.get(name) ?? '';
          return userinfo ? encodeURIComponent(value) : value;
        });
      }) as Record<string, unknown>,
    redactText,
    redactValue: (value) => mapStrings(value, redactText),
    redactSerialized: (bytes) => Buffer.from(JSON.stringify(mapStrings(JSON.parse(bytes.toString('utf8')), redactText)), 'utf8'),
  };
}

/** The failure with secret values taken out of its message (the only text of it that reaches the history). */
export function redactFailure(failure: ApplicationFailure, secrets: ResolvedSecrets | null): ApplicationFailure {
  if (!secrets) return failure;
  const message = secrets.redactText(failure.message);
  if (message === failure.message) return failure;
  return ApplicationFailure.create({
    type: failure.type ?? undefined,
    message,
    nonRetryable: failure.nonRetryable ?? undefined,
    details: failure.details ? [...failure.details] : undefined,
  });
}
