/**
 * Requests to the API with the session's access token. The token lives in this module only (never in storage or
 * the address); the refresh token is an HttpOnly cookie the page cannot read, renewed with the CSRF token of the
 * readable `loom_csrf` cookie (docs/auth.md#browser-clients-refresh-cookie).
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface BrowserTokens {
  accessToken: string;
  expiresIn: number;
}

let accessToken: string | null = null;
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let renewing: Promise<boolean> | null = null;
let onSignedOut: () => void = () => undefined;

export const BROWSER_MODE = { 'x-refresh-token-transport': 'cookie' };

/** Called when the session ends on its own (expired, revoked): the app shows the sign-in page. */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

export function adoptTokens(tokens: BrowserTokens): void {
  accessToken = tokens.accessToken;
  clearTimeout(renewTimer);
  // Renew before expiry so that a page left open keeps working; a failed renewal signs out.
  renewTimer = setTimeout(() => void renewSession(), Math.max(10, tokens.expiresIn * 0.8) * 1000);
}

export function forgetTokens(): void {
  accessToken = null;
  clearTimeout(renewTimer);
}

function cookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** A new access token from the refresh cookie; false when there is no session to renew. */
export function renewSession(): Promise<boolean> {
  renewing ??= (async () => {
    const csrf = cookie('loom_csrf');
    if (!csrf) return false;
    const res = await fetch('/api/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, ...BROWSER_MODE },
      body: '{}',
    });
    if (!res.ok) {
      if (accessToken) {
        forgetTokens();
        onSignedOut();
      }
      return false;
    }
    adoptTokens((await res.json()) as BrowserTokens);
    return true;
  })().finally(() => {
    renewing = null;
  });
  return renewing;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const attempt = () =>
    fetch(withQuery(path, options.query), {
      method: options.method ?? 'GET',
      headers: {
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
  let res = await attempt();
  if (res.status === 401 && accessToken && (await renewSession())) res = await attempt();
  return res;
}

async function failure(res: Response): Promise<ApiError> {
  let code = `HTTP_${res.status}`;
  let message = res.statusText || 'request failed';
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // not the API's error envelope: keep the status line
  }
  return new ApiError(res.status, code, message);
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(path, options);
  if (!res.ok) throw await failure(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
