import { collect, createLoomClient, LoomApiError, paginate } from '../../../client/index';
import { errorAnswer, runView, startFakeApi, type FakeApi, type ReceivedRequest } from './fakeApi';

/** Seven runs, newest first, served in pages of `limit` with an opaque cursor (the index after the last item). */
const RUN_IDS = ['r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1'];

function listRuns(request: ReceivedRequest) {
  if (request.path !== '/api/v1/runs') return errorAnswer(404, 'NOT_FOUND', 'not found');
  const limit = Number(request.query.get('limit') ?? 20);
  const cursor = request.query.get('cursor');
  const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8').replace('after:', ''));
  if (!Number.isInteger(start)) return errorAnswer(400, 'VALIDATION_ERROR', 'invalid cursor');
  const end = Math.min(start + limit, RUN_IDS.length);
  return {
    status: 200,
    body: {
      data: RUN_IDS.slice(start, end).map((id) => runView(id, request.query.get('status') ?? 'completed')),
      nextCursor: end < RUN_IDS.length ? Buffer.from(`after:${end}`).toString('base64url') : null,
    },
  };
}

let api: FakeApi;
afterEach(async () => {
  await api?.close();
});

test('paginate follows nextCursor across pages until it is null, keeping the query of the first page', async () => {
  api = await startFakeApi(listRuns);
  const loom = createLoomClient(api.baseUrl, 'A1');

  const ids: string[] = [];
  for await (const run of loom.paginate('/api/v1/runs', { params: { query: { status: 'completed', limit: 3 } } })) {
    expect(run.status).toBe('completed');
    ids.push(run.id);
  }

  expect(ids).toEqual(RUN_IDS);
  const pages = api.to('/api/v1/runs');
  expect(pages).toHaveLength(3);
  expect(pages.map((p) => p.query.get('limit'))).toEqual(['3', '3', '3']);
  expect(pages.map((p) => p.query.get('status'))).toEqual(['completed', 'completed', 'completed']);
  expect(pages.map((p) => p.query.get('cursor'))).toEqual([null, Buffer.from('after:3').toString('base64url'), Buffer.from('after:6').toString('base64url')]);
  expect(pages.every((p) => p.headers.authorization === 'Bearer A1')).toBe(true);
});

test('maxItems stops the iteration without asking for another page; collect gathers the items', async () => {
  api = await startFakeApi(listRuns);
  const loom = createLoomClient(api.baseUrl);

  const firstFour = await loom.collect('/api/v1/runs', { params: { query: { limit: 3 } }, maxItems: 4 });
  expect(firstFour.map((r) => r.id)).toEqual(['r7', 'r6', 'r5', 'r4']);
  expect(api.to('/api/v1/runs')).toHaveLength(2);

  // A page boundary at maxItems: the third page is never asked for.
  const six = await collect(loom, '/api/v1/runs', { params: { query: { limit: 3 } }, maxItems: 6 });
  expect(six).toHaveLength(6);
  expect(api.to('/api/v1/runs')).toHaveLength(4);

  expect(await loom.collect('/api/v1/runs', { maxItems: 0 })).toEqual([]);
  expect(api.to('/api/v1/runs')).toHaveLength(4);

  const all = await loom.collect('/api/v1/runs');
  expect(all.map((r) => r.id)).toEqual(RUN_IDS);
});

test('a refused page throws LoomApiError; breaking out of the loop stops the requests', async () => {
  api = await startFakeApi(listRuns);
  const loom = createLoomClient(api.baseUrl);

  const iteration = (async () => {
    for await (const run of paginate(loom, '/api/v1/runs', { params: { query: { cursor: 'garbage', limit: 2 } } })) void run;
  })();
  await expect(iteration).rejects.toMatchObject({ name: 'LoomApiError', status: 400, code: 'VALIDATION_ERROR' });
  await expect(iteration).rejects.toBeInstanceOf(LoomApiError);

  const before = api.received.length;
  for await (const run of loom.paginate('/api/v1/runs', { params: { query: { limit: 2 } } })) {
    expect(run.id).toBe('r7');
    break;
  }
  expect(api.received.length - before).toBe(1);
});
