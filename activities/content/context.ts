import type { ActivityDeps } from '../deps';
import { getVersion, mergeVersionExtracted, setDerivedFile, versionExists, type VersionKey } from '../../domain/content/queries';
import type { VectorStore } from '../../lib/vectors';
import { derivedKey } from '../../lib/content/keys';
import { PermanentContentError } from '../../lib/content/errors';
import { putBuffer, readObject } from '../../lib/storage';

/** What one processing step works with: the version being processed and helpers to read and write its files. */
export interface StepInput {
  jobId: string;
  organizationId: string;
  contentId: string;
  version: number;
  maxAttempts: number;
  maxBytes: number;
  chunkSize: number;
  chunkOverlap: number;
}

export interface VersionRecord {
  object_key: string;
  mime_type: string;
  media_type: string;
  size_bytes: string | number;
  filename: string;
  derived: Record<string, { key: string; mimeType: string; size: number; [k: string]: unknown }>;
  extracted: Record<string, unknown>;
}

export interface StepResult {
  /** Shown at /status. */
  output: Record<string, unknown>;
  /** Set when the step does not apply (e.g. text of an image); the reason is shown as the step's error. */
  skipped?: string;
}

export interface StepContext {
  deps: ActivityDeps;
  vectors: VectorStore;
  input: StepInput;
  version: VersionRecord;
  readOriginal(): Promise<Buffer>;
  readDerived(name: string): Promise<Buffer | null>;
  /** Writes a derived file beside the original and records it on the version under `name`. */
  putDerived(name: string, file: string, body: Buffer, mimeType: string, extra?: Record<string, unknown>): Promise<void>;
  mergeExtracted(values: Record<string, unknown>): Promise<void>;
  /** False once the content was deleted (a running step then cleans up what it wrote). */
  stillExists(): Promise<boolean>;
}

export async function loadStepContext(deps: ActivityDeps, vectors: VectorStore, input: StepInput): Promise<StepContext> {
  const { db } = deps;
  const bucket = deps.config.minio.bucket;
  const versionKey: VersionKey = { organizationId: input.organizationId, contentId: input.contentId, version: input.version };
  const version: VersionRecord | undefined = await getVersion(db, input.organizationId, input.contentId, input.version);
  if (!version) throw new PermanentContentError('content or version no longer exists');
  const stillExists = async () => Boolean(await versionExists(db, versionKey));

  return {
    deps,
    vectors,
    input,
    version,
    stillExists,
    async readOriginal() {
      const size = Number(version.size_bytes);
      if (size > input.maxBytes) {
        throw new PermanentContentError(`file of ${size} bytes exceeds the processing limit of ${input.maxBytes} bytes`);
      }
      return readObject(deps.storage, bucket, version.object_key);
    },
    async readDerived(name) {
      const file = version.derived?.[name];
      return file ? readObject(deps.storage, bucket, file.key) : null;
    },
    async putDerived(name, file, body, mimeType, extra = {}) {
      const key = derivedKey(input.organizationId, input.contentId, input.version, file);
      await putBuffer(deps.storage, bucket, key, body, mimeType);
      const entry = { key, mimeType, size: body.length, ...extra };
      if (!(await setDerivedFile(db, versionKey, name, entry))) {
        await deps.storage.removeObject(bucket, key).catch(() => undefined);
        throw new PermanentContentError('content was deleted while processing');
      }
      version.derived = { ...version.derived, [name]: entry };
    },
    async mergeExtracted(values) {
      await mergeVersionExtracted(db, versionKey, values);
      version.extracted = { ...version.extracted, ...values };
    },
  };
}
