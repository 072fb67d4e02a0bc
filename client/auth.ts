import { errorEnvelopeOf, LoomApiError } from './errors';

/** What the client sends requests with: openapi-fetch hands it a finished `Request`. */
export type FetchFunction = (request: Request) => Promise<Response>;

/** A pair as the API answers it (register, login, refresh, switch-organization, password change). */
export interface TokenPair {
  accessToken: string;
  /** Absent in browser mode (the refresh token lives in an HttpOnly cookie): refreshing is then the page's job. */
  refreshToken?: string | null;
}

/** What a successful refresh stored; given to `onTokens` so the caller can persist it. */
export interface RefreshedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
}

export interface TokenKeeperOptions {
  baseUrl: string;
  fetch: FetchFunction;
  accessToken?: string | null;
  refreshToken?: string | null;
  /** Called (and awaited) after each refresh the client made by itself, with the rotated pair. */
  onTokens?: (tokens: RefreshedTokens) => void | Promise<void>;
}

export interface TokenKeeper {
  /** Sends a request with the current access token, refreshing it once and replaying on `TOKEN_EXPIRED`. */
  fetch: FetchFunction;
  tokens(): StoredTokens;
  setAccessToken(token: string | null): void;
  useTokens(pair: TokenPair): void;
  /** Refreshes now (shared with any refresh already under way); rejects with `LoomApiError` when refused. */
  refresh(): Promise<RefreshedTokens>;
}

const REFRESH_PATH = '/api/auth/refresh';

/**
 * Holds the access and refresh tokens of one client. Refresh tokens rotate and a spent one presented again revokes
 * the session (docs/auth.md#sessions; the reuse grace forgives a client racing itself, but only for a few seconds
 * and not at all when the operator sets it to 0s), so concurrent requests that all find the access token expired
 * share one refresh instead of each presenting the same refresh token.
 */
export function createTokenKeeper(options: TokenKeeperOptions): TokenKeeper {
  const refreshUrl = options.baseUrl.replace(/\/+$/, '') + REFRESH_PATH;
  const refreshPathname = new URL(refreshUrl).pathname;
  const send = options.fetch;
  let accessToken = options.accessToken ?? null;
  let refreshToken = options.refreshToken ?? null;
  let inFlight: Promise<RefreshedTokens> | null = null;

  async function exchange(): Promise<RefreshedTokens> {
    const presented = refreshToken;
    if (presented === null) {
      throw new LoomApiError({ status: 401, code: 'UNAUTHORIZED', message: 'no refresh token: sign in again' });
    }
    const response = await send(
      new Request(refreshUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refreshToken: presented }),
      }),
    );
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      // Refused (expired, revoked, reused): this refresh token will never work again, so stop presenting it;
      // a 429 or a 5xx says nothing about the token and keeps it.
      if ((response.status === 401 || response.status === 403) && refreshToken === presented) refreshToken = null;
      throw LoomApiError.fromResponse(response, body);
    }
    const pair = body as Partial<RefreshedTokens> | undefined;
    if (typeof pair?.accessToken !== 'string' || typeof pair.refreshToken !== 'string') {
      throw new LoomApiError({ status: response.status, code: 'INVALID_RESPONSE', message: 'the refresh answer carries no token pair' });
    }
    const refreshed: RefreshedTokens = {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      expiresIn: typeof pair.expiresIn === 'number' ? pair.expiresIn : 0,
    };
    accessToken = refreshed.accessToken;
    refreshToken = refreshed.refreshToken;
    await options.onTokens?.(refreshed);
    return refreshed;
  }

  function refresh(): Promise<RefreshedTokens> {
    inFlight ??= exchange().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  async function authenticatedFetch(request: Request): Promise<Response> {
    // A caller's own Authorization or API key wins; only requests that carry our token can be fixed by refreshing.
    const sentToken = request.headers.has('authorization') || request.headers.has('x-api-key') ? null : accessToken;
    if (sentToken !== null) request.headers.set('authorization', `Bearer ${sentToken}`);
    const mayRefresh = sentToken !== null && refreshToken !== null && new URL(request.url).pathname !== refreshPathname;
    // Cloned before sending: once sent, the body stream is spent and the replay needs its own copy.
    const replay = mayRefresh ? request.clone() : null;
    const response = await send(request);
    if (replay === null) return response;
    if (response.status !== 401 || !(await isTokenExpired(response))) {
      // The copy of the body is not needed: free it now rather than at garbage collection.
      await replay.body?.cancel().catch(() => undefined);
      return response;
    }

    let freshToken: string;
    if (accessToken !== null && accessToken !== sentToken) {
      // Another request refreshed while this one was on the wire: its token is already the new one.
      freshToken = accessToken;
    } else {
      try {
        freshToken = (await refresh()).accessToken;
      } catch (err) {
        // The API refused the refresh: the original TOKEN_EXPIRED answer is what the caller gets, once.
        if (err instanceof LoomApiError) return response;
        throw err;
      }
    }
    // The expired answer is dropped unread: release its connection rather than wait for garbage collection.
    await response.body?.cancel().catch(() => undefined);
    replay.headers.set('authorization', `Bearer ${freshToken}`);
    return send(replay);
  }

  return {
    fetch: authenticatedFetch,
    tokens: () => ({ accessToken, refreshToken }),
    setAccessToken(token) {
      accessToken = token;
    },
    useTokens(pair) {
      accessToken = pair.accessToken;
      // A new pair replaces the old one whole: the previous refresh token was rotated away by the same answer.
      refreshToken = pair.refreshToken ?? null;
    },
    refresh,
  };
}

async function isTokenExpired(response: Response): Promise<boolean> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return errorEnvelopeOf(body)?.code === 'TOKEN_EXPIRED';
}
