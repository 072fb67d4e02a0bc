import http from 'node:http';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * The API stopped in the middle of an upload (connections cut while the multipart body is still streaming): no
 * content record is left behind, half-written or otherwise, and a new instance serves the organization normally.
 */

let tenant: TestTenant;

async function countContent(api: TestApi): Promise<number> {
  const [row] = await api.deps.db('content').where({ organization_id: tenant.organizationId }).count<{ count: string }[]>('id as count');
  return Number(row!.count);
}

test('an upload cut by an API shutdown leaves no content record', async () => {
  const first = await startApi();
  tenant = await createTestTenant(first);
  const boundary = 'loomfaultboundary';
  const url = new URL('/api/v1/content', first.baseUrl);
  const req = http.request({
    method: 'POST',
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    headers: { authorization: `Bearer ${tenant.owner.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
  });
  const done = new Promise<string>((resolve) => {
    req.on('response', (res) => resolve(`response ${res.statusCode}`));
    req.on('error', (err) => resolve(`error ${err.message}`));
  });
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  // Two MB of the file, then the server goes away before the closing boundary arrives.
  for (let i = 0; i < 32; i += 1) req.write(Buffer.alloc(64 * 1024, i));
  await new Promise((r) => setTimeout(r, 300));
  await first.close();
  const outcome = await done;
  expect(outcome).not.toMatch(/response 2\d\d/);

  const second = await startApi();
  try {
    expect(await countContent(second)).toBe(0);
    const list = await second.request('GET', '/api/v1/workflows', { token: tenant.owner.token });
    expect(list.status).toBe(200);
  } finally {
    req.destroy();
    await second.close();
  }
});
