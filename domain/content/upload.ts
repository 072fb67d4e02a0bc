import type { WrittenObject } from '../../lib/content/objectWriter';
import type { StorageQuota } from '../../lib/content/quota';
import type { MinioClient } from '../../lib/storage';

/** The text fields of an upload, as the client sent them; the service validates them (parseFields). */
export interface UploadFields {
  title?: string;
  tags?: unknown;
  metadata?: unknown;
}

/** An upload whose file is already stored at its target's key, with its fields. */
export interface ReceivedUpload {
  fields: UploadFields;
  file: WrittenObject & { filename: string; declaredMimeType: string | null };
}

/** Where and within which limits the file of an upload is stored. */
export interface UploadTarget {
  storage: MinioClient;
  bucket: string;
  key: string;
  maxBytes: number;
  /** Bytes left under the plan's storage quota, or null when the plan is unlimited. */
  quotaRemaining: number | null;
  /** The quota those bytes are left of (for the numbers in a refusal). */
  quota: StorageQuota;
}

/**
 * Reads the request's upload, streaming its file to the target (api/content/multipart.ts, bound to the request by
 * the route). On any failure the object is gone before it throws.
 */
export type ReceiveUpload = (target: UploadTarget) => Promise<ReceivedUpload>;

/** The request headers a download answers to. */
export interface DownloadConditions {
  /** `If-None-Match`, or '' when absent. */
  ifNoneMatch: string;
  /** `Range`, or '' when absent. */
  range: string;
  /** `If-Range`, or '' when absent: the range applies only while it names the current ETag (RFC 9110 §13.1.5). */
  ifRange: string;
}
