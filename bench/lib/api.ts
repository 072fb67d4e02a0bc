import { Client as PgClient } from 'pg';

/** The bench's view of the real API: plain fetch against the child process, failing loudly on unexpected answers. */
export interface ApiSession {
  baseUrl: string;
  userId: string;
  email: string;
  password: string;
  token: string;
  organizationId: string;
}

export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; expect?: number } = {},
): Promise<T> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  const expected = options.expect ?? (method === 'POST' ? 201 : 200);
  if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status} (expected ${expected}): ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

interface AuthResult {
  user: { id: string; email: string };
  tokens: { accessToken: string; refreshToken: string };
}

/**
 * Registers a user through the API, creates an organization, makes it the session's active one and lifts it to
 * the enterprise plan (directly in the scratch database: the free plan's 1,000 API calls a month would end a
 * benchmark within a second).
 */
export async function registerTenant(baseUrl: string, dbUrl: string, label: string): Promise<ApiSession> {
  const email = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@bench.example.com`;
  const password = 'Bench-Passw0rd!x';
  const registered = await call<AuthResult>(baseUrl, 'POST', '/api/auth/register', { body: { email, password, name: label } });
  const org = await call<{ id: string }>(baseUrl, 'POST', '/api/v1/organizations', {
    token: registered.tokens.accessToken,
    body: { name: `Bench ${label}` },
  });
  const switched = await call<{ accessToken: string }>(baseUrl, 'POST', '/api/auth/switch-organization', {
    token: registered.tokens.accessToken,
    body: { organizationID: org.id },
    expect: 200,
  });
  const pg = new PgClient({ connectionString: dbUrl });
  await pg.connect();
  await pg.query(`UPDATE organizations SET plan = 'enterprise' WHERE id = $1`, [org.id]);
  await pg.end();
  return { baseUrl, userId: registered.user.id, email, password, token: switched.accessToken, organizationId: org.id };
}

/** Registers a bare user (no organization): for login load, so its sessions never evict the reader's. */
export async function registerUser(baseUrl: string, label: string): Promise<{ email: string; password: string; userId: string }> {
  const email = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@bench.example.com`;
  const password = 'Bench-Passw0rd!x';
  const registered = await call<AuthResult>(baseUrl, 'POST', '/api/auth/register', { body: { email, password, name: label } });
  return { email, password, userId: registered.user.id };
}
