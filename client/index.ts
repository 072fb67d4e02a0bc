import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/schema';

export type { paths, components, operations } from './generated/schema';

export type LoomClient = Client<paths> & {
  /** Replaces the bearer token used by later requests (after login, refresh or switching organization). */
  setToken(token: string | null): void;
};

/**
 * A typed client for the Loom API: paths, parameters, bodies and responses come from the OpenAPI document
 * (`npm run generate:client`). Every call answers `{ data, error, response }`; `error` is the error envelope.
 *
 *   const loom = createLoomClient('http://127.0.0.1:3000');
 *   const { data } = await loom.POST('/api/auth/login', { body: { email, password } });
 */
export function createLoomClient(baseUrl: string, token?: string): LoomClient {
  let current: string | null = token ?? null;
  const client = createClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, '') });
  const auth: Middleware = {
    onRequest({ request }) {
      if (current && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${current}`);
      return request;
    },
  };
  client.use(auth);
  return Object.assign(client, {
    setToken(next: string | null) {
      current = next;
    },
  });
}
