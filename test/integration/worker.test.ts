import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../helpers/stack';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

test('a workflow run by the worker calls an activity that writes to PostgreSQL', async () => {
  const id = randomUUID();
  const result = await api.deps.temporal.workflow.execute('systemCheckWorkflow', {
    taskQueue: api.config.temporal.taskQueue,
    workflowId: `system-check-${id}`,
    args: [{ id, note: 'hello from the test' }],
    workflowExecutionTimeout: '60s',
  });
  expect(result.id).toBe(id);
  const row = await api.deps.db('system_checks').where({ id }).first();
  expect(row.note).toBe('hello from the test');
});

test('an object is put, read back and deleted in MinIO', async () => {
  const { storage, config } = api.deps;
  const key = `org/test/${randomUUID()}.txt`;
  const payload = Buffer.from('bytes in minio '.repeat(1000));
  await storage.putObject(config.minio.bucket, key, payload, payload.length, { 'Content-Type': 'text/plain' });
  const stream = await storage.getObject(config.minio.bucket, key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(payload)).toBe(true);
  await storage.removeObject(config.minio.bucket, key);
  await expect(storage.statObject(config.minio.bucket, key)).rejects.toThrow();
});
