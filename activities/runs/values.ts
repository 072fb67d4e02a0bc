import type { ActivityDeps } from '../deps';
import { organizationPrefix, putBuffer } from '../../lib/storage';
import { decodeUtf8, readSized } from '../../lib/largeBytes';
import { hasLongStrings, parseJson, serializeJson } from '../../lib/cooperativeJson';
import { isValueRef, type ValueRef } from '../../lib/runs/types';
import { InputResolutionError } from './inputResolutionError';
import { activityLease, type ValueLease } from './valueMemory';

/**
 * Large run values live in object storage and travel through Temporal as `{ $ref: 's3://<bucket>/<key>' }`
 * (Temporal caps payloads at 2 MB and every value is kept in history). Keys:
 * `org/<orgId>/runs/<runId>/<name>.json`. A reference is only ever resolved inside the organization that owns it,
 * so a parameter crafted to look like a reference cannot read another tenant's objects.
 */

export function runObjectKey(organizationId: string, runId: string, name: string): string {
  // `each[3]` (a loop item) is `each.3`: never `..`, which ownedKey refuses as a way out of the run's folder.
  const safe = name
    .replace(/[^A-Za-z0-9_.-]+/g, '.')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.|\.$/g, '');
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
  return storeSerialized(deps, organizationId, runId, name, await serializeJson(value));
}

/**
 * Stores a value already serialized. Large values are serialized once: to measure them and to store them (each
 * JSON.stringify of a 15 MB parse result holds the worker's event loop, which every tenant's runs share, ~50 ms),
 * and hashed for the upload a slice at a time (putBuffer).
 */
export async function storeSerialized(deps: ActivityDeps, organizationId: string, runId: string, name: string, json: string | Buffer): Promise<ValueRef> {
  const body = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  const key = runObjectKey(organizationId, runId, name);
  await putBuffer(deps.storage, deps.config.minio.bucket, key, body, 'application/json');
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
  if (hasLongStrings(value)) {
    // A long text (content_read's content, a text passed on): serialized taking turns with other work.
    const body = await serializeJson(value);
    return body.length > thresholdBytes ? storeSerialized(deps, organizationId, runId, name, body) : value;
  }
  const json = JSON.stringify(value ?? null);
  // A string's length bounds its UTF-8 size from below: most large values are decided without counting bytes.
  if (json.length > thresholdBytes || Buffer.byteLength(json, 'utf8') > thresholdBytes) return storeSerialized(deps, organizationId, runId, name, json);
  return value;
}

/** Values under this are never stored to save room: as for the interpreter's budget (scheduler/spill.ts). */
const MIN_STORED_BYTES = 1024;

/**
 * Stores the largest of `values` (each as `<prefix>.<name>`) until the ones left inline serialize to at most
 * `inlineBytes` together; answers the values with references in place of those stored.
 */
export async function storeLargestUntilWithin(
  deps: ActivityDeps,
  organizationId: string,
  runId: string,
  prefix: string,
  values: Record<string, unknown>,
  inlineBytes: number,
): Promise<Record<string, unknown>> {
  const sized = Object.entries(values)
    .map(([name, value]) => {
      const json = JSON.stringify(value ?? null);
      return { name, json, bytes: Buffer.byteLength(json, 'utf8') };
    })
    .sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1));
  let inline = sized.reduce((sum, v) => sum + v.bytes, 0);
  const out = { ...values };
  for (const { name, json, bytes } of sized) {
    // Sorted largest first: once one is under 1 KiB (a reference is ~100 bytes), none left is worth storing.
    if (inline <= inlineBytes || bytes < MIN_STORED_BYTES) break;
    out[name] = await storeSerialized(deps, organizationId, runId, `${prefix}.${name}`, json);
    inline -= bytes;
  }
  return out;
}

const MiB = 1024 * 1024;

/**
 * What one activity (one node execution: a tool, a condition, a loop's items, a rendered value) may read of stored
 * values. A reference costs ~100 bytes to write and may stand for megabytes, and the same one may appear any number
 * of times, also inside stored values: unbounded, 700 copies of a reference to a 7 MB output in a 70 KB parameter
 * had the worker read 5 GB and die out of memory at every retry. Beyond a limit the node fails, not retryable,
 * with VALUE_TOO_LARGE (docs/runs.md#large-values).
 */
export interface StoredValueLimits {
  /** Bytes of one stored object; its size is checked (stat) before a byte of it is read. */
  valueBytes: number;
  /** Bytes of the references expanded, each counted every time it appears: about the size of the resolved value. */
  totalBytes: number;
  /** Distinct stored objects read (each is read once, however often it is referenced). */
  distinctValues: number;
  /** References expanded, repeats included (a repeat is parsed again: every use gets its own copy). */
  references: number;
}

export const STORED_VALUE_LIMITS: Readonly<StoredValueLimits> = {
  // The largest values built-in tools return at the default settings are content_read's 10 MB file as base64
  // (13.4 MB) and http_request's 5 MB body as base64 (6.7 MB): over twice the former.
  valueBytes: 32 * MiB,
  // Two values of the largest size, or about five of the largest tool outputs, per node execution.
  totalBytes: 64 * MiB,
  // Stored values are outputs over RUN_LARGE_OUTPUT_BYTES (256 KB): over 256 of them already pass totalBytes.
  distinctValues: 1_000,
  references: 10_000,
};

/**
 * Memory counted per byte of a stored value read: its text (kept once per activity, possibly two bytes a character)
 * and the parsed copy each use gets.
 */
const MEMORY_PER_STORED_BYTE = 3;

/** The failure type (error code) of a node whose stored values pass a limit. */
export const VALUE_TOO_LARGE = 'VALUE_TOO_LARGE';

function tooLarge(message: string): InputResolutionError {
  return new InputResolutionError(VALUE_TOO_LARGE, message);
}

export function bytesAndMiB(bytes: number): string {
  return `${bytes} bytes (${Math.round((bytes / MiB) * 10) / 10} MiB)`;
}

/**
 * One activity's reads of stored values, within `limits` for all of them together: share one reader between the
 * resolutions of one activity. Each object is downloaded once; every use of it parses its own copy, so a caller
 * that changes a resolved value never changes another.
 */
export class StoredValueReader {
  private readonly sizes = new Map<string, number>();
  private readonly texts = new Map<string, string>();
  private bytesExpanded = 0;
  private referencesExpanded = 0;

  constructor(
    private readonly deps: ActivityDeps,
    private readonly organizationId: string,
    private readonly limits: Readonly<StoredValueLimits> = STORED_VALUE_LIMITS,
    /** The activity's share of the worker's memory for values; found from the running activity by default. */
    private readonly lease: ValueLease | null = activityLease(),
  ) {}

  // Read when needed only: values without references never touch the storage settings.
  private get bucket(): string {
    return this.deps.config.minio.bucket;
  }

  /** One stored value, parsed (references inside it are left as they are). */
  async load(ref: ValueRef): Promise<unknown> {
    return (await this.loadParsed(ref)).value;
  }

  /**
   * A stored value and whether its text holds a reference. Parsed taking turns with the event loop (a stored value
   * of up to 32 MB: JSON.parse of 10 MB of small objects holds the loop 100-500 ms, and the worker's loop runs
   * every tenant's runs).
   */
  private async loadParsed(ref: ValueRef): Promise<{ value: unknown; hasRefs: boolean }> {
    const key = ownedKey(ref, this.bucket, this.organizationId);
    if (!key) throw new Error(`reference ${ref.$ref} is not a run value of this organization`);
    const text = await this.read(key);
    return { value: await parseJson(text), hasRefs: text.includes('"$ref"') };
  }

  /**
   * Replaces every reference in a value by the stored value (references inside stored values too, e.g. a loop's
   * item outputs). Objects that merely look like references but belong elsewhere are left as they are.
   */
  resolve(value: unknown): Promise<unknown> {
    return this.resolveAt(value, 0);
  }

  private async resolveAt(value: unknown, depth: number): Promise<unknown> {
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    // Most values hold no reference: one serialization is cheaper than walking them.
    if (depth === 0 && !JSON.stringify(value).includes('"$ref"')) return value;
    if (isValueRef(value)) {
      if (!ownedKey(value, this.bucket, this.organizationId)) return value;
      // A stored value without references is used as parsed: walking (and copying) 10 MB of it would hold the loop.
      const loaded = await this.loadParsed(value);
      return loaded.hasRefs ? this.resolveAt(loaded.value, depth + 1) : loaded.value;
    }
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) out.push(await this.resolveAt(item, depth + 1));
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await this.resolveAt(v, depth + 1);
    return out;
  }

  /** The object's text, counted against the limits before anything is downloaded. */
  private async read(key: string): Promise<string> {
    const { limits } = this;
    this.referencesExpanded += 1;
    if (this.referencesExpanded > limits.references) {
      throw tooLarge(`the node's values hold more than ${limits.references} references to stored values (the limit per node)`);
    }
    let size = this.sizes.get(key);
    if (size === undefined) {
      if (this.sizes.size >= limits.distinctValues) {
        throw tooLarge(`the node reads more than ${limits.distinctValues} distinct stored values (the limit per node)`);
      }
      size = (await this.deps.storage.statObject(this.bucket, key)).size;
      if (size > limits.valueBytes) {
        throw tooLarge(
          `stored value ${refUrl(this.bucket, key)} is ${size} bytes, ` +
            `more than the ${bytesAndMiB(limits.valueBytes)} a node may read of one stored value`,
        );
      }
      this.sizes.set(key, size);
    }
    if (this.bytesExpanded + size > limits.totalBytes) {
      throw tooLarge(
        `the stored values the node reads come to more than ${bytesAndMiB(limits.totalBytes)}, the limit per node ` +
          '(a value referenced several times counts each time)',
      );
    }
    this.bytesExpanded += size;
    // The worker's budget for values being read (valueMemory.ts): each use is parsed into its own copy.
    await this.lease?.take(size * MEMORY_PER_STORED_BYTE);
    let text = this.texts.get(key);
    if (text === undefined) {
      text = await this.download(key, size);
      this.texts.set(key, text);
    }
    return text;
  }

  /** Stops at `size` bytes: the object may have been replaced by a larger one since its stat. */
  private async download(key: string, size: number): Promise<string> {
    const stream = await this.deps.storage.getObject(this.bucket, key);
    const bytes = await readSized(stream, size, () => new Error(`stored value ${refUrl(this.bucket, key)} changed while it was read`));
    return decodeUtf8(bytes);
  }
}

/** One stored value, parsed; refused unread when larger than STORED_VALUE_LIMITS.valueBytes. */
export function loadValue(deps: ActivityDeps, organizationId: string, ref: ValueRef): Promise<unknown> {
  return new StoredValueReader(deps, organizationId).load(ref);
}

/** `value` with its references resolved (StoredValueReader.resolve), within the limits of one activity. */
export function resolveRefs(deps: ActivityDeps, organizationId: string, value: unknown): Promise<unknown> {
  return new StoredValueReader(deps, organizationId).resolve(value);
}
