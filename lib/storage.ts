import { Client as MinioClient } from 'minio';
import type { Config } from './config';

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

export function organizationPrefix(organizationId: string): string {
  return `org/${organizationId}/`;
}
