import { createHash } from 'node:crypto';
import { finished } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { Client as MinioClient } from 'minio';
import type { Config } from './config';
import { readSized } from './largeBytes';

export type { MinioClient };

/** Object storage (MinIO / S3). One bucket; keys are prefixed by organization: `org/<orgId>/...`. */
export function createStorage(config: Config['minio']): MinioClient {
  return new MinioClient({
    endPoint: config.endPoint,
    port: config.port,
    useSSL: config.useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // Without a region the client asks the server for one before presigning.
    region: config.region,
  });
}

export async function ensureBucket(client: MinioClient, bucket: string, region: string): Promise<void> {
  if (!(await client.bucketExists(bucket))) {
    try {
      await client.makeBucket(bucket, region);
    } catch (err) {
      // Another process may have created it in between.
      if ((err as { code?: string }).code !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }
}

/** A whole object as one Buffer, copied into place as it streams in (lib/largeBytes.ts: never one large copy). */
export async function readObject(client: MinioClient, bucket: string, key: string): Promise<Buffer> {
  const { size } = await client.statObject(bucket, key);
  return readSized(await client.getObject(bucket, key), size, () => new Error(`${key} changed while it was read`));
}

export function organizationPrefix(organizationId: string): string {
  return `org/${organizationId}/`;
}

/** Bodies larger than this are hashed a slice at a time, the event loop turning between slices. */
const HASH_SLICE_BYTES = 1024 * 1024;

async function hashInSlices(body: Buffer, algorithm: 'sha256' | 'md5', encoding: 'hex' | 'base64'): Promise<string> {
  const hash = createHash(algorithm);
  for (let offset = 0; offset < body.length; offset += HASH_SLICE_BYTES) {
    if (offset > 0) await setImmediate();
    hash.update(body.subarray(offset, offset + HASH_SLICE_BYTES));
  }
  return hash.digest(encoding);
}

/**
 * `putObject` of a Buffer, without holding the event loop to hash it. The client hashes a body in one call before
 * sending it (SHA-256 to sign it over plain HTTP, MD5 always, used only over TLS): ~40 ms for 16 MB on the worker's
 * loop, which every tenant's activities and workflow tasks share (issue 40). Large bodies are hashed here in 1 MB
 * slices and sent with the client's own signed request; small ones go through `putObject` as before.
 */
export async function putBuffer(client: MinioClient, bucket: string, key: string, body: Buffer, contentType: string): Promise<void> {
  if (body.length <= HASH_SLICE_BYTES) {
    await client.putObject(bucket, key, body, body.length, { 'Content-Type': contentType });
    return;
  }
  const headers: Record<string, string | number> = { 'Content-Type': contentType, 'Content-Length': body.length };
  let sha256 = '';
  if (client.enableSHA256) sha256 = await hashInSlices(body, 'sha256', 'hex');
  else headers['Content-MD5'] = await hashInSlices(body, 'md5', 'base64');
  const response = await client.makeRequestStreamAsync({ method: 'PUT', bucketName: bucket, objectName: key, headers }, body, sha256, [200], '');
  response.resume();
  await finished(response);
}
