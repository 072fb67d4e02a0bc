import createClient, { type Client } from 'openapi-fetch';
import { createTokenKeeper, type FetchFunction, type RefreshedTokens, type StoredTokens, type TokenPair } from './auth';
import type { paths } from './generated/schema';
import { collect, paginate, type PageItem, type PaginateArgs, type PaginatedPath } from './pagination';
import { startRunAndWait, waitForRun, type FinishedRun, type StartRunAndWaitOptions, type WaitForRunOptions } from './runs';

export type { paths, components, operations } from './generated/schema';
export type { FetchFunction, RefreshedTokens, StoredTokens, TokenPair } from './auth';
export { LoomApiError, RunWaitTimeoutError, unwrap, type LoomErrorCode, type LoomErrorDetail } from './errors';
export { collect, paginate, type PageItem, type PaginateArgs, type PaginatedPath, type PaginateOptions } from './pagination';
export {
  isFinished,
  startRunAndWait,
  waitForRun,
  type FinishedRun,
  type FinishedRunStatus,
  type Run,
  type StartRunAndWaitOptions,
  type WaitForRunOptions,
} from './runs';

export interface LoomClientOptions {
  accessToken?: string | null;
  /** With it, a request answered 401 `TOKEN_EXPIRED` refreshes the pair once and is sent again. */
  refreshToken?: string | null;
  /** Called with each pair the client got by refreshing by itself (to persist it); awaited. */
  onTokens?: (tokens: RefreshedTokens) => void | Promise<void>;
  /** Sends the requests (default: the global `fetch`). */
  fetch?: FetchFunction;
}

export type LoomClient = Client<paths> & {
  /** Replaces the access token of later requests; the refresh token stays. */
  setToken(token: string | null): void;
  /** Stores a pair answered by register, login, switch-organization or a password change (replacing both tokens). */
  useTokens(pair: TokenPair): void;
  /** The tokens the client holds now (after any refresh it made). */
  tokens(): StoredTokens;
  /** Refreshes the pair now; concurrent refreshes share one request. Rejects with `LoomApiError` when refused. */
  refreshTokens(): Promise<RefreshedTokens>;
  /** Every item of a list, following `nextCursor` (see `paginate`). */
  paginate<P extends PaginatedPath>(path: P, ...options: PaginateArgs<P>): AsyncGenerator<PageItem<P>, void, undefined>;
  /** Every item of a list in one array (see `collect`). */
  collect<P extends PaginatedPath>(path: P, ...options: PaginateArgs<P>): Promise<PageItem<P>[]>;
  /** Polls the run until it has finished (see `waitForRun`). */
  waitForRun(workflowId: string, runId: string, options?: WaitForRunOptions): Promise<FinishedRun>;
  /** Starts a run and answers it finished, waiting server-side first (see `startRunAndWait`). */
  startRunAndWait(workflowId: string, parameters?: Record<string, unknown>, options?: StartRunAndWaitOptions): Promise<FinishedRun>;
};

/**
 * A typed client for the Loom API: paths, parameters, bodies and responses come from the OpenAPI document
 * (`npm run generate:client`). Every call answers `{ data, error, response }` (`unwrap` turns it into the data or a
 * thrown `LoomApiError`); the helpers (`paginate`, `waitForRun`, `startRunAndWait`) throw.
 *
 *   const loom = createLoomClient('http://127.0.0.1:3000');
 *   const { tokens } = unwrap(await loom.POST('/api/auth/login', { body: { email, password } }));
 *   loom.useTokens(tokens);
 *
 * The second argument may also be an access token alone, as in earlier versions.
 */
export function createLoomClient(baseUrl: string, options: string | LoomClientOptions = {}): LoomClient {
  const settings: LoomClientOptions = typeof options === 'string' ? { accessToken: options } : options;
  const root = baseUrl.replace(/\/+$/, '');
  const keeper = createTokenKeeper({
    baseUrl: root,
    // Looked up at each call, not captured: a fetch replaced later (tests, polyfills) is the one used.
    fetch: settings.fetch ?? ((request) => globalThis.fetch(request)),
    accessToken: settings.accessToken,
    refreshToken: settings.refreshToken,
    onTokens: settings.onTokens,
  });
  const client = createClient<paths>({ baseUrl: root, fetch: keeper.fetch });
  const extras: Omit<LoomClient, keyof Client<paths>> = {
    setToken: keeper.setAccessToken,
    useTokens: keeper.useTokens,
    tokens: keeper.tokens,
    refreshTokens: keeper.refresh,
    paginate: (path, ...args) => paginate(client, path, ...args),
    collect: (path, ...args) => collect(client, path, ...args),
    waitForRun: (workflowId, runId, waitOptions) => waitForRun(client, workflowId, runId, waitOptions),
    startRunAndWait: (workflowId, parameters, startOptions) => startRunAndWait(client, workflowId, parameters, startOptions),
  };
  return Object.assign(client, extras);
}
