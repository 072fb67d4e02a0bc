import { AppError } from '../errors';

/**
 * The storage quota of an organization, as the upload checks it: `usedBytes` is the sum of the sizes of every stored
 * version of every content (derived files such as thumbnails and extracted text are not counted), `limitBytes` the
 * plan's quota (`CONTENT_QUOTA_<PLAN>_BYTES`, else `SERVICE_PLAN_<PLAN>_STORAGE_GB`), null when unlimited.
 */
export interface StorageQuota {
  usedBytes: number;
  limitBytes: number | null;
}

/** Bytes left, or null when unlimited (never negative). */
export function remainingBytes(quota: StorageQuota): number | null {
  return quota.limitBytes === null ? null : Math.max(0, quota.limitBytes - quota.usedBytes);
}

/**
 * 429 QUOTA_EXCEEDED with the numbers: the limit, what is stored, and what the upload needs (`incomingBytes`; `atLeast`
 * when the upload was cut off while streaming, so only a lower bound is known).
 */
export function storageQuotaExceeded(quota: StorageQuota, incoming?: { bytes: number; atLeast?: boolean }): AppError {
  const limit = quota.limitBytes ?? 0;
  const needs = incoming ? `; this file needs ${incoming.atLeast ? 'more than ' : ''}${incoming.bytes} bytes` : '';
  return new AppError(
    'QUOTA_EXCEEDED',
    `storage quota exceeded: ${quota.usedBytes} of ${limit} bytes are stored${needs}; delete content or versions, or upgrade the plan`,
    [
      { path: 'storage.limitBytes', problem: String(limit) },
      { path: 'storage.usedBytes', problem: String(quota.usedBytes) },
      ...(incoming ? [{ path: 'file.size', problem: `${incoming.atLeast ? '>' : ''}${incoming.bytes}` }] : []),
    ],
  );
}
