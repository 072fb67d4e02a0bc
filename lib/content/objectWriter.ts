import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { MinioClient } from '../storage';

/**
 * Streams a body into one MinIO object with bounded memory: parts of PART_BYTES go out as they fill (multipart
 * upload), a body smaller than one part is a single PUT. The minio client's own putObject would, for a stream of
 * unknown length, gather parts of hundreds of MB in memory. Counts, hashes (SHA-256) and keeps the first bytes for
 * sniffing on the way. Anything that goes wrong aborts the multipart upload, so no partial object remains.
 */
export const PART_BYTES = 8 * 1024 * 1024;

export interface WrittenObject {
  size: number;
  sha256: string;
  head: Buffer;
  mimeType: string;
}

export class UploadLimitError extends Error {
  constructor(
    readonly reason: 'size' | 'quota',
    readonly limit: number,
  ) {
    super(reason === 'size' ? `file larger than ${limit} bytes` : `storage quota exceeded`);
  }
}

export interface WriteOptions {
  storage: MinioClient;
  bucket: string;
  key: string;
  /** Fails with UploadLimitError('size') past this many bytes. */
  maxBytes: number;
  /** Fails with UploadLimitError('quota') past this many bytes (what is left of the storage quota). */
  quotaBytes: number | null;
  headBytes: number;
  /** Decides the stored Content-Type once the first bytes are known. */
  contentType(head: Buffer): Promise<string>;
  /**
   * Called as soon as a limit is passed, before the promise settles (which waits for the source to end or close):
   * lets the caller stop reading the request and answer at once instead of draining the rest.
   */
  onLimit?(err: UploadLimitError): void;
}

/**
 * Reads with 'data' events rather than for-await: on a limit we must keep draining the source (a multipart parser
 * stalls if one of its file streams is destroyed) while writing nothing more, then report the error once the part
 * has been read to its end.
 */
export function writeStreamToObject(body: Readable, options: WriteOptions): Promise<WrittenObject> {
  const { storage, bucket, key } = options;
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  let part: Buffer[] = [];
  let partSize = 0;
  let uploadId: string | null = null;
  let mimeType: string | null = null;
  let failure: unknown = null;
  let inFlight: Promise<void> = Promise.resolve();
  const etags: { part: number; etag: string }[] = [];

  const flushPart = async (): Promise<void> => {
    if (uploadId === null) {
      mimeType ??= await options.contentType(head);
      uploadId = await storage.initiateNewMultipartUpload(bucket, key, { 'Content-Type': mimeType });
    }
    const payload = Buffer.concat(part, partSize);
    part = [];
    partSize = 0;
    const partNumber = etags.length + 1;
    const { etag } = await storage.uploadPart(
      { bucketName: bucket, objectName: key, uploadID: uploadId, partNumber, headers: { 'Content-Length': payload.length } },
      payload,
    );
    etags.push({ part: partNumber, etag });
  };

  const fail = (err: unknown): void => {
    failure ??= err;
    part = [];
    partSize = 0;
    body.resume();
  };

  return new Promise<WrittenObject>((resolve, reject) => {
    body.on('data', (buf: Buffer) => {
      if (failure) return;
      size += buf.length;
      const limit =
        size > options.maxBytes
          ? new UploadLimitError('size', options.maxBytes)
          : options.quotaBytes !== null && size > options.quotaBytes
            ? new UploadLimitError('quota', options.quotaBytes)
            : null;
      if (limit) {
        fail(limit);
        options.onLimit?.(limit);
        return;
      }
      hash.update(buf);
      if (head.length < options.headBytes) head = Buffer.concat([head, buf.subarray(0, options.headBytes - head.length)]);
      part.push(buf);
      partSize += buf.length;
      if (partSize >= PART_BYTES) {
        body.pause();
        inFlight = flushPart().then(() => {
          body.resume();
        }, fail);
      }
    });
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      void (async () => {
        await inFlight;
        if (!failure) {
          try {
            mimeType ??= await options.contentType(head);
            if (uploadId === null) {
              await storage.putObject(bucket, key, Buffer.concat(part, partSize), partSize, { 'Content-Type': mimeType });
            } else {
              if (partSize > 0) await flushPart();
              await storage.completeMultipartUpload(bucket, key, uploadId, etags);
            }
            resolve({ size, sha256: hash.digest('hex'), head, mimeType });
            return;
          } catch (err) {
            failure = err;
          }
        }
        if (uploadId !== null) await storage.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
        reject(failure);
      })();
    };
    body.on('end', finish);
    // A client that goes away mid-upload: no 'end' will come.
    body.on('error', (err) => {
      fail(err);
      finish();
    });
    body.on('close', () => {
      if (!body.readableEnded) {
        fail(new Error('upload stream closed before its end'));
        finish();
      }
    });
  });
}
