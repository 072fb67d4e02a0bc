import { Writable } from 'node:stream';
import type { MinioClient } from '../storage';

/** S3 refuses parts under 5 MiB (except the last) and more than 10,000 parts. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PARTS = 10_000;
export const DEFAULT_PART_BYTES = 16 * 1024 * 1024;

export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the object would need more than ${MAX_PARTS} parts of ${maxBytes / MAX_PARTS} bytes`);
  }
}

export interface MultipartUpload {
  /** Write the object's bytes here; end it to complete the upload. */
  stream: Writable;
  /** Settles when the upload completed (after `stream` ended) or failed; a failed upload is aborted. */
  done: Promise<{ etag: string }>;
}

/**
 * A streamed upload of unknown length with bounded memory: at most one part (`partBytes`) is held at a time, and
 * writes wait (backpressure) while a part is being sent. `putObject` with a stream of unknown size cannot be used
 * for this: minio-js then sizes its parts for a 5 TiB object (about 560 MiB each) and buffers a whole part.
 * The object appears only when the upload completes, so a failed or interrupted writer never leaves a partial object
 * behind (an interrupted process leaves an incomplete upload, which `removeIncompleteUpload` clears).
 */
export async function startMultipartUpload(
  storage: MinioClient,
  bucket: string,
  key: string,
  options: { contentType: string; metadata?: Record<string, string>; partBytes?: number },
): Promise<MultipartUpload> {
  const partBytes = Math.max(MIN_PART_BYTES, options.partBytes ?? DEFAULT_PART_BYTES);
  const headers: Record<string, string> = { 'Content-Type': options.contentType };
  for (const [name, value] of Object.entries(options.metadata ?? {})) headers[`x-amz-meta-${name}`] = value;
  const uploadId = await storage.initiateNewMultipartUpload(bucket, key, headers);
  const etags: { part: number; etag: string }[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  async function sendPart(): Promise<void> {
    if (etags.length >= MAX_PARTS) throw new ObjectTooLargeError(partBytes * MAX_PARTS);
    const body = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    const part = etags.length + 1;
    const res = await storage.uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} }, body);
    etags.push({ part, etag: res.etag });
  }

  let resolveDone!: (v: { etag: string }) => void;
  let rejectDone!: (err: Error) => void;
  const done = new Promise<{ etag: string }>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // The caller may learn of the failure through the stream first; keep an unobserved rejection from crashing.
  done.catch(() => undefined);
  let aborted = false;
  let completed = false;
  const abort = async (err: Error) => {
    if (!aborted) {
      aborted = true;
      await storage.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
    }
    rejectDone(err);
  };

  const stream = new Writable({
    highWaterMark: 1024 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < partBytes) return callback();
      sendPart().then(() => callback(), (err: Error) => callback(err));
    },
    final(callback) {
      (async () => {
        if (pendingBytes > 0 || etags.length === 0) await sendPart();
        const result = await storage.completeMultipartUpload(bucket, key, uploadId, etags);
        completed = true;
        resolveDone({ etag: result.etag });
      })().then(() => callback(), (err: Error) => callback(err));
    },
    destroy(err, callback) {
      if (err) {
        abort(err).then(() => callback(err), () => callback(err));
      } else {
        // Destroyed without an error before completing (the writer gave up): the upload is abandoned.
        if (!completed) void abort(new Error('upload abandoned before it completed'));
        callback(null);
      }
    },
  });
  return { stream, done };
}
