import type { ActivityDeps } from '../deps';
import { organizationPrefix } from '../../lib/storage';
import { isValueRef, type ValueRef } from '../../workflows/runs/types';

/**
 * Large run values live in object storage and travel through Temporal as `{ $ref: 's3://<bucket>/<key>' }`
 * (Temporal caps payloads at 2 MB and every value is kept in history). Keys:
 * `org/<orgId>/runs/<runId>/<name>.json`. A reference is only ever resolved inside the organization that owns it,
 * so a parameter crafted to look like a reference cannot read another tenant's objects.
 */

export function runObjectKey(organizationId: string, runId: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '.');
  return `${organizationPrefix(organizationId)}runs/${runId}/${safe}.json`;
}

export function refUrl(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}

/** The object key of a reference owned by `organizationId`, or null when it points elsewhere. */
export function ownedKey(ref: ValueRef, bucket: string, organizationId: string): string | null {
  const prefix = `s3://${bucket}/`;
  if (!ref.$ref.startsWith(prefix)) return null;
  const key = ref.$ref.slice(prefix.length);
  if (!key.startsWith(`${organizationPrefix(organizationId)}runs/`) || key.includes('..')) return null;
  return key;
}

export async function storeValue(
  deps: ActivityDeps,
  organizationId: string,
  runId: string,
  name: string,
  value: unknown,
): Promise<ValueRef> {
  const body = Buffer.from(JSON.stringify(value ?? null), 'utf8');
  const key = runObjectKey(organizationId, runId, name);
  await deps.storage.putObject(deps.config.minio.bucket, key, body, body.length, {
    'Content-Type': 'application/json',
  });
  return { $ref: refUrl(deps.config.minio.bucket, key), bytes: body.length };
}

/** Keeps small values inline; stores larger ones and returns their reference. */
export async function storeIfLarge(
  deps: ActivityDeps,
  organizationId: string,
  runId: string,
  name: string,
  value: unknown,
  thresholdBytes: number,
): Promise<unknown> {
  const size = Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
  if (size <= thresholdBytes) return value;
  return storeValue(deps, organizationId, runId, name, value);
}

export async function loadValue(deps: ActivityDeps, organizationId: string, ref: ValueRef): Promise<unknown> {
  const key = ownedKey(ref, deps.config.minio.bucket, organizationId);
  if (!key) throw new Error(`reference ${ref.$ref} is not a run value of this organization`);
  const stream = await deps.storage.getObject(deps.config.minio.bucket, key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/**
 * Replaces every reference in a value by the stored value (references inside stored values too, e.g. a loop's
 * item outputs). Objects that merely look like references but belong elsewhere are left as they are.
 */
export async function resolveRefs(deps: ActivityDeps, organizationId: string, value: unknown, depth = 0): Promise<unknown> {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  // Most values hold no reference: one serialization is cheaper than walking them.
  if (depth === 0 && !JSON.stringify(value).includes('"$ref"')) return value;
  if (isValueRef(value)) {
    if (!ownedKey(value, deps.config.minio.bucket, organizationId)) return value;
    return resolveRefs(deps, organizationId, await loadValue(deps, organizationId, value), depth + 1);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(await resolveRefs(deps, organizationId, item, depth + 1));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = await resolveRefs(deps, organizationId, v, depth + 1);
  return out;
}
