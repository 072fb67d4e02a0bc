#!/usr/bin/env node
// Creates the MinIO bucket ${MINIO_BUCKET:-loom} if missing. Used by `scripts/services up`.
// The app creates its bucket itself too; this only makes `up` leave a usable bucket.
import * as Minio from 'minio';

const env = process.env;
const bucket = env.MINIO_BUCKET || 'loom';
const region = env.MINIO_REGION || 'us-east-1';
const client = new Minio.Client({
  endPoint: env.MINIO_ENDPOINT || '127.0.0.1',
  port: Number(env.MINIO_PORT || 9000),
  useSSL: (env.MINIO_USE_SSL || 'false') === 'true',
  accessKey: env.MINIO_ACCESS_KEY || 'loomadmin',
  secretKey: env.MINIO_SECRET_KEY || 'loomadmin-secret',
  region,
});

try {
  if (!(await client.bucketExists(bucket))) {
    try {
      await client.makeBucket(bucket, region);
      process.stdout.write(`created bucket ${bucket}\n`);
    } catch (err) {
      if (!(err && (err.code === 'BucketAlreadyOwnedByYou' || err.code === 'BucketAlreadyExists'))) throw err;
    }
  }
} catch (err) {
  process.stderr.write(`ensure-bucket: cannot create bucket ${bucket}: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
}
