import { randomUUID } from 'node:crypto';
import { putBuffer } from '../../lib/storage';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * putBuffer (lib/storage.ts) hashes large bodies a slice at a time and sends them with the client's signed request:
 * against the real MinIO, what it stores is what was given, with its content type, small and large alike.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

async function read(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await api.deps.storage.getObject(api.config.minio.bucket, key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('small and large bodies are stored as given, with their content type', async () => {
  for (const size of [10, 1024 * 1024, 3 * 1024 * 1024 + 17]) {
    const body = Buffer.alloc(size);
    for (let i = 0; i < size; i += 1) body[i] = (i * 31 + size) % 251;
    const key = `test/put-buffer/${randomUUID()}`;
    await putBuffer(api.deps.storage, api.config.minio.bucket, key, body, 'application/x-loom-test');
    expect((await read(key)).equals(body)).toBe(true);
    const stat = await api.deps.storage.statObject(api.config.minio.bucket, key);
    expect({ size: stat.size, type: stat.metaData['content-type'] }).toEqual({ size, type: 'application/x-loom-test' });
    await api.deps.storage.removeObject(api.config.minio.bucket, key);
  }
});
