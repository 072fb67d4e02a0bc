import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { createApp, type App } from '../../api/app';
import type { AppDeps } from '../../domain/deps';
import { closeDeps, createDeps } from '../../domain/runtime';
import { loadConfig, type Config } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { installTransactionGuard } from './transactionGuard';

export interface TestApi {
  baseUrl: string;
  deps: AppDeps;
  app: App;
  config: Config;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Send this exact string as the body (for malformed JSON tests). */
  rawBody?: string | Buffer;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary JSON; typing it loosely keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/**
 * All test traffic comes from 127.0.0.1 and the limiter's counters live in the shared test database, so per-IP
 * auth limits are lifted for test instances (tests of the limits override them, with X-Forwarded-For IPs).
 */
export const TEST_RATE_LIMIT_OVERRIDES: Record<string, string> = {
  SERVICE_RATE_LIMIT_LOGIN_IP: 'off',
  SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP: 'off',
  SERVICE_RATE_LIMIT_REGISTER_IP: 'off',
  SERVICE_RATE_LIMIT_REFRESH_IP: 'off',
  SERVICE_RATE_LIMIT_RESET_IP: 'off',
};

/**
 * Starts the real API in this process on a random port, against the run's database, Temporal task queue and
 * bucket (see test/setup/globalSetup.ts). `overrides` changes configuration keys for this instance only.
 * `logTo`, when given, receives every line the API logs, at the most verbose level (test/helpers/logCapture.ts).
 * `close` ends what the process would end at exit (app.shutdown: the access caches' listener, usage counts), then
 * the connections: a listener left open would reconnect after the test file is gone.
 */
export async function startApi(overrides: Record<string, string> = {}, logTo?: Writable): Promise<TestApi> {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: process.env.TEST_API_LOG_LEVEL ?? 'silent',
    ...TEST_RATE_LIMIT_OVERRIDES,
    ...overrides,
    ...(logTo ? { LOG_LEVEL: 'trace' } : {}),
  });
  const deps = createDeps(config);
  if (logTo) deps.logger = createLogger('trace', 'api', logTo);
  installTransactionGuard(deps);
  const app = createApp(deps);
  const server: Server = await new Promise((resolve) => {
    const s = app.koa.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    deps,
    app,
    config,
    request: requestOver(baseUrl),
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await app.shutdown();
      await closeDeps(deps);
    },
  };
}

/** JSON over HTTP to an API at `baseUrl` (in-process or a child process): the one request helper of the tests. */
export function requestOver(baseUrl: string): TestApi['request'] {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}
