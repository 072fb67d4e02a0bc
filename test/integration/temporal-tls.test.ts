import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Worker } from '@temporalio/worker';
import { createToolCatalogue } from '../../domain/tools/catalogue';
import { createLogger } from '../../lib/logger';
import { createWorker } from '../../worker/createWorker';
import { createWorkflowFixture, toolNode } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant } from '../helpers/tenants';
import { makeTestPki, type TestPki } from '../helpers/tlsCerts';

/**
 * Temporal over mTLS (docs/scaling.md#temporal-connection): a TLS front (Node's tls server with the test CA's server
 * certificate, client certificates required, HTTP/2 by ALPN) stands before the dev server, as a secured frontend or
 * Temporal Cloud would. The API and a worker configured with TEMPORAL_TLS_* files reach it, and a run goes through
 * end to end; an API without a client certificate is refused at the handshake and /readyz says Temporal is down.
 */

let pki: TestPki;
let front: tls.Server;
let frontAddress: string;
const handshakes: { authorized: boolean; client: string | null }[] = [];
/** Open connections through the front: closed at the end (a worker's native connection outlives the worker). */
const open = new Set<net.Socket>();
const taskQueue = `tls-${randomUUID()}`;

beforeAll(async () => {
  pki = makeTestPki();
  const [host, port] = (process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233').split(':');
  front = tls.createServer(
    {
      key: readFileSync(pki.serverKey),
      cert: readFileSync(pki.serverCert),
      ca: readFileSync(pki.caCert),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (socket) => {
      const cn = socket.getPeerCertificate()?.subject?.CN;
      handshakes.push({ authorized: socket.authorized, client: typeof cn === 'string' ? cn : null });
      const upstream = net.connect(Number(port), host!);
      socket.pipe(upstream).pipe(socket);
      open.add(socket).add(upstream);
      const close = () => {
        socket.destroy();
        upstream.destroy();
        open.delete(socket);
        open.delete(upstream);
      };
      socket.on('close', close);
      upstream.on('close', close);
      socket.on('error', close);
      upstream.on('error', close);
    },
  );
  front.on('tlsClientError', () => handshakes.push({ authorized: false, client: null }));
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontAddress = `127.0.0.1:${(front.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of open) socket.destroy();
  await new Promise((r) => front.close(r));
});

const mtls = () => ({
  TEMPORAL_ADDRESS: frontAddress,
  TEMPORAL_TASK_QUEUE: taskQueue,
  TEMPORAL_TLS_CA_FILE: pki.caCert,
  TEMPORAL_TLS_CERT_FILE: pki.clientCert,
  TEMPORAL_TLS_KEY_FILE: pki.clientKey,
});

test('the API and a worker over mTLS: ready, and a run completes through the TLS front', async () => {
  const api: TestApi = await startApi(mtls());
  let worker: Worker | undefined;
  try {
    const ready = await api.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.services.temporal.checks).toMatchObject({ frontend: { ok: true }, namespace: { ok: true }, searchAttributes: { ok: true }, history: { ok: true } });

    const logger = createLogger('silent', 'tls-worker');
    worker = await createWorker({
      deps: { ...api.deps, logger, tools: createToolCatalogue({ db: api.deps.db, config: api.config, logger }) },
      workflowBundlePath: api.config.temporal.workflowBundlePath,
    });
    const tenant = await createTestTenant(api);
    const workflowId = await createWorkflowFixture(api, tenant, { nodes: [toolNode('echo', 'json_transform', { expression: '$', data: { over: 'tls' } })] });
    const run = await worker.runUntil(() =>
      api.request('POST', `/api/v1/workflows/${workflowId}/runs?wait=30s`, { token: tenant.owner.token, body: {} }),
    );
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('completed');
    expect(run.body.results).toEqual({ echo: { result: { over: 'tls' } } });
    // Both the API's connection and the worker's came through the front, authenticated by the client certificate.
    expect(handshakes.filter((h) => h.authorized && h.client === 'loom-worker').length).toBeGreaterThanOrEqual(2);
  } finally {
    await api.close();
  }
});

test('without a client certificate the front refuses the handshake: /readyz reports Temporal unreachable', async () => {
  const { TEMPORAL_TLS_CERT_FILE: _cert, TEMPORAL_TLS_KEY_FILE: _key, ...caOnly } = mtls();
  const api = await startApi(caOnly);
  try {
    const before = handshakes.length;
    const res = await api.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body.services.temporal).toMatchObject({ ok: false, kind: 'unreachable', error: 'unreachable' });
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(handshakes.slice(before).some((h) => !h.authorized)).toBe(true);
  } finally {
    await api.close();
  }
});
