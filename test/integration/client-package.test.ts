import { randomUUID } from 'node:crypto';
import { createLoomClient, LoomApiError, unwrap, type LoomClient, type RefreshedTokens } from '../../client/index';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * The client package (client/) against the real API in-process and the real worker: the quickstart's walk, the
 * helpers (startRunAndWait, paginate, waitForRun, unwrap) and a refresh of a really expired access token.
 */

const ACCESS_TOKEN_SECONDS = 2;
let api: TestApi;
/** Access tokens that expire within seconds, and refresh tokens strictly single use (no reuse grace). */
let shortLived: TestApi;

beforeAll(async () => {
  [api, shortLived] = await Promise.all([
    startApi(),
    startApi({ SERVICE_JWT_ACCESS_TOKEN_DURATION: `${ACCESS_TOKEN_SECONDS}s`, SERVICE_AUTH_REFRESH_REUSE_GRACE: '0s' }),
  ]);
});

afterAll(async () => {
  await Promise.all([api?.close(), shortLived?.close()]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function register(loom: LoomClient) {
  const email = `client-${randomUUID().slice(0, 8)}@example.com`;
  const registered = unwrap(await loom.POST('/api/auth/register', { body: { email, password: `Client-${randomUUID()}!7`, name: 'Client' } }));
  loom.useTokens(registered.tokens);
  return registered;
}

const GREETING_DAG = {
  nodes: [
    {
      id: 'greet',
      type: 'tool' as const,
      config: { tool: 'json_transform', config: { expression: '{ "greeting": "Hello, " & name & "!" }', data: { name: 'Loom' } } },
    },
  ],
};

test('register, organization, switch, workflow, startRunAndWait, then the runs page by page with limit 1', async () => {
  const runPages: (string | null)[] = [];
  const loom = createLoomClient(api.baseUrl, {
    fetch: (request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/v1/runs') runPages.push(url.searchParams.get('cursor'));
      return fetch(request);
    },
  });

  const registered = await register(loom);
  expect(loom.tokens()).toEqual({ accessToken: registered.tokens.accessToken, refreshToken: registered.tokens.refreshToken });
  const organization = unwrap(await loom.POST('/api/v1/organizations', { body: { name: `Client ${randomUUID().slice(0, 6)}` } }));
  loom.useTokens(unwrap(await loom.POST('/api/auth/switch-organization', { body: { organizationID: organization.id } })));
  expect(unwrap(await loom.GET('/api/auth/me')).organizationID).toBe(organization.id);

  const workflow = unwrap(await loom.POST('/api/v1/workflows', { body: { name: 'Client greeting', dag: GREETING_DAG } }));

  const runs = [];
  for (let i = 0; i < 3; i += 1) {
    const run = await loom.startRunAndWait(workflow.id, {}, { waitSeconds: 30, idempotencyKey: randomUUID() });
    expect(run.status).toBe('completed');
    expect(run.results).toEqual({ greet: { result: { greeting: 'Hello, Loom!' } } });
    runs.push(run);
  }

  // Newest first, one run per page: the first page without a cursor, each next one with the cursor of the page
  // before; the list reads one row past the page, so the third page already answers nextCursor null.
  const listed: string[] = [];
  for await (const run of loom.paginate('/api/v1/runs', { params: { query: { limit: 1, workflow_id: workflow.id } } })) {
    expect(run.status).toBe('completed');
    listed.push(run.id);
  }
  expect(listed).toEqual(runs.map((r) => r.id).reverse());
  expect(runPages).toHaveLength(3);
  expect(runPages[0]).toBeNull();
  expect(runPages.slice(1).every((cursor) => typeof cursor === 'string' && cursor.length > 0)).toBe(true);
  expect(new Set(runPages).size).toBe(3);

  const newestTwo = await loom.collect('/api/v1/workflows/{id}/runs', { params: { path: { id: workflow.id }, query: { limit: 1 } }, maxItems: 2 });
  expect(newestTwo.map((r) => r.id)).toEqual([runs[2]!.id, runs[1]!.id]);

  // A finished run is answered by the first read.
  expect((await loom.waitForRun(workflow.id, runs[0]!.id, { timeoutMs: 5_000 })).status).toBe('completed');

  const missing = await loom.GET('/api/v1/workflows/{id}/runs/{run_id}', { params: { path: { id: workflow.id, run_id: randomUUID() } } });
  expect(() => unwrap(missing)).toThrow(LoomApiError);
  expect(() => unwrap(missing)).toThrow(expect.objectContaining({ status: 404, code: 'NOT_FOUND', requestId: expect.any(String) }));
});

test('an expired access token is refreshed transparently: once for concurrent requests, bodies replayed, again later', async () => {
  const refreshed: RefreshedTokens[] = [];
  const loom = createLoomClient(shortLived.baseUrl, { onTokens: (tokens) => void refreshed.push(tokens) });
  const registered = await register(loom);
  expect(registered.tokens.expiresIn).toBe(ACCESS_TOKEN_SECONDS);

  const waitUntilExpired = async (accessToken: string): Promise<void> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await shortLived.request('GET', '/api/auth/me', { token: accessToken });
      if (res.status === 401) {
        expect(res.body.error.code).toBe('TOKEN_EXPIRED');
        return;
      }
      if (Date.now() > deadline) throw new Error('the access token did not expire');
      await sleep(250);
    }
  };

  const issued = loom.tokens();
  await waitUntilExpired(issued.accessToken!);

  // Four requests at once, one of them with a body: one refresh (a second would revoke the session: no grace here).
  const name = `Refreshed ${randomUUID().slice(0, 6)}`;
  const [me, sessions, created, meAgain] = await Promise.all([
    loom.GET('/api/auth/me'),
    loom.GET('/api/auth/sessions'),
    loom.POST('/api/v1/organizations', { body: { name } }),
    loom.GET('/api/auth/me'),
  ]);
  expect(unwrap(me).user.id).toBe(registered.user.id);
  expect(unwrap(sessions).data).toHaveLength(1);
  expect(unwrap(created).name).toBe(name);
  expect(unwrap(meAgain).user.id).toBe(registered.user.id);
  expect(refreshed).toHaveLength(1);
  const rotated = loom.tokens();
  expect(rotated).toEqual({ accessToken: refreshed[0]!.accessToken, refreshToken: refreshed[0]!.refreshToken });
  expect(rotated.accessToken).not.toBe(issued.accessToken);
  expect(rotated.refreshToken).not.toBe(issued.refreshToken);

  // The organization was created once, from the replayed body.
  const organizations = await loom.collect('/api/v1/organizations');
  expect(organizations.filter((o) => o.name === name)).toHaveLength(1);

  // The rotated pair refreshes again once its access token has expired in turn.
  await waitUntilExpired(rotated.accessToken!);
  expect(unwrap(await loom.GET('/api/auth/me')).user.id).toBe(registered.user.id);
  expect(refreshed).toHaveLength(2);
  expect(loom.tokens().refreshToken).toBe(refreshed[1]!.refreshToken);
});
