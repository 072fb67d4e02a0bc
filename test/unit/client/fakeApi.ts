import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake API received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer after this long (to let concurrent requests pile up). */
  delayMs?: number;
}

export type FakeHandler = (request: ReceivedRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeApi {
  baseUrl: string;
  /** Every request, in the order they arrived. */
  received: ReceivedRequest[];
  /** The requests to `path` (method optional). */
  to(path: string, method?: string): ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A small HTTP server on 127.0.0.1 (port 0) that speaks the Loom API's protocol as far as a test needs it: JSON
 * bodies, the error envelope, bearer tokens. The client under test talks to it over a real socket with the real
 * fetch, so requests, bodies and clones are what they are in production.
 */
export async function startFakeApi(handler: FakeHandler): Promise<FakeApi> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      Promise.resolve()
        .then(() => handler(request))
        .then(async (answer) => {
          if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
          const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
          res.writeHead(answer.status, {
            ...(text ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) } : {}),
            ...answer.headers,
          });
          res.end(text);
        })
        .catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`fake API handler failed: ${String(err)}`);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    to: (path, method) => received.filter((r) => r.path === path && (method === undefined || r.method === method)),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The API's error envelope. */
export function errorAnswer(status: number, code: string, message: string, headers?: Record<string, string>): FakeAnswer {
  return { status, body: { error: { code, message } }, headers };
}

export const tokenExpired = (): FakeAnswer =>
  errorAnswer(401, 'TOKEN_EXPIRED', 'invalid token', { 'www-authenticate': 'Bearer realm="loom", error="invalid_token"' });

/** The bearer token of a request, or null. */
export function bearerOf(request: ReceivedRequest): string | null {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

/** A run view with the fields the client reads; the rest as the API shows a fresh run. */
export function runView(id: string, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    workflow_id: 'wf-1',
    workflow_version: 1,
    status,
    parameters: {},
    node_states: {},
    results: status === 'completed' ? { greet: { result: { greeting: 'Hello' } } } : {},
    errors: [],
    awaiting_approval: false,
    created_at: '2026-01-01T00:00:00.000Z',
    created_by: null,
    started_at: null,
    completed_at: null,
    duration: null,
    parent: null,
    retry_of: null,
    trigger: { type: 'manual' },
    links: { picture: 'http://x/picture', temporal: 'http://x/temporal' },
    ...extra,
  };
}
