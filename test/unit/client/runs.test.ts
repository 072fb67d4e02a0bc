import { createLoomClient, RunWaitTimeoutError, waitForRun } from '../../../client/index';
import { errorAnswer, runView, startFakeApi, type FakeApi, type ReceivedRequest } from './fakeApi';

const RUN_PATH = '/api/v1/workflows/wf-1/runs/run-1';
const START_PATH = '/api/v1/workflows/wf-1/runs';

/** GET of run-1 answers the statuses in order, then the last one again and again. */
function runGoesThrough(statuses: string[]) {
  let reads = 0;
  return (request: ReceivedRequest) => {
    if (request.method === 'GET' && request.path === RUN_PATH) {
      const status = statuses[Math.min(reads, statuses.length - 1)]!;
      reads += 1;
      return { status: 200, body: runView('run-1', status) };
    }
    return errorAnswer(404, 'NOT_FOUND', 'not found');
  };
}

let api: FakeApi;
afterEach(async () => {
  await api?.close();
});

describe('waitForRun', () => {
  test('polls the run until it has finished and answers the finished run', async () => {
    api = await startFakeApi(runGoesThrough(['pending', 'running', 'running', 'completed']));
    const loom = createLoomClient(api.baseUrl, 'A1');

    const run = await loom.waitForRun('wf-1', 'run-1', { pollIntervalMs: 5, timeoutMs: 5_000 });

    expect(run.status).toBe('completed');
    expect(run.results).toEqual({ greet: { result: { greeting: 'Hello' } } });
    expect(api.to(RUN_PATH, 'GET')).toHaveLength(4);
  });

  test('a failed or cancelled run is finished too', async () => {
    api = await startFakeApi(runGoesThrough(['running', 'cancelling', 'cancelled']));
    const loom = createLoomClient(api.baseUrl);
    expect((await waitForRun(loom, 'wf-1', 'run-1', { pollIntervalMs: 5 })).status).toBe('cancelled');
  });

  test('rejects with RunWaitTimeoutError carrying the last seen run once the timeout has passed', async () => {
    api = await startFakeApi(runGoesThrough(['pending', 'running']));
    const loom = createLoomClient(api.baseUrl);

    const started = Date.now();
    const error: unknown = await loom.waitForRun('wf-1', 'run-1', { timeoutMs: 300, pollIntervalMs: 20 }).catch((err: unknown) => err);
    const elapsed = Date.now() - started;

    expect(error).toBeInstanceOf(RunWaitTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 300, run: { id: 'run-1', status: 'running' } });
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(3_000);
    // A growing pause (20, 30, 45, 67, 101 ms...): a handful of reads, not one every 20 ms.
    const reads = api.to(RUN_PATH, 'GET').length;
    // At least one read after the first (a loaded machine fits fewer into the window); never one every 20 ms.
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThan(12);
  });

  test('an aborted signal stops the wait with its reason', async () => {
    api = await startFakeApi(runGoesThrough(['running']));
    const loom = createLoomClient(api.baseUrl);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    await expect(loom.waitForRun('wf-1', 'run-1', { pollIntervalMs: 1_000, signal: controller.signal })).rejects.toThrow('caller gave up');
  });

  test('a run the API refuses to show throws LoomApiError at once', async () => {
    api = await startFakeApi(() => errorAnswer(404, 'NOT_FOUND', 'run not found'));
    const loom = createLoomClient(api.baseUrl);
    await expect(loom.waitForRun('wf-1', 'run-1')).rejects.toMatchObject({ name: 'LoomApiError', status: 404, code: 'NOT_FOUND' });
    expect(api.received).toHaveLength(1);
  });
});

describe('startRunAndWait', () => {
  test('200: the API waited and answered the finished run; nothing is polled', async () => {
    api = await startFakeApi((request) =>
      request.method === 'POST' && request.path === START_PATH
        ? { status: 200, body: runView('run-1', 'completed', { parameters: JSON.parse(request.body).parameters }) }
        : errorAnswer(404, 'NOT_FOUND', 'not found'),
    );
    const loom = createLoomClient(api.baseUrl, 'A1');

    const run = await loom.startRunAndWait('wf-1', { name: 'Loom' }, { waitSeconds: 20, idempotencyKey: 'key-1' });

    expect(run).toMatchObject({ id: 'run-1', status: 'completed', parameters: { name: 'Loom' } });
    const [start] = api.to(START_PATH, 'POST');
    expect(start!.query.get('wait')).toBe('20000ms');
    expect(start!.headers['idempotency-key']).toBe('key-1');
    expect(JSON.parse(start!.body)).toEqual({ parameters: { name: 'Loom' } });
    expect(api.to(RUN_PATH, 'GET')).toHaveLength(0);
  });

  test('202: the run is still open when the API stops waiting, so the rest of the wait is spent polling', async () => {
    const reads = runGoesThrough(['running', 'completed']);
    api = await startFakeApi((request) =>
      request.method === 'POST' && request.path === START_PATH
        ? { status: 202, body: runView('run-1', 'running'), headers: { location: RUN_PATH } }
        : reads(request),
    );
    const loom = createLoomClient(api.baseUrl);

    const run = await loom.startRunAndWait('wf-1', {}, { waitSeconds: 5, pollIntervalMs: 5 });

    expect(run.status).toBe('completed');
    expect(api.to(START_PATH, 'POST')).toHaveLength(1);
    expect(api.to(RUN_PATH, 'GET')).toHaveLength(2);
  });

  test('202 and still open at the end of waitSeconds: RunWaitTimeoutError with the whole wait and the last run', async () => {
    api = await startFakeApi((request) =>
      request.method === 'POST' ? { status: 202, body: runView('run-1', 'running') } : runGoesThrough(['running'])(request),
    );
    const loom = createLoomClient(api.baseUrl);

    const error: unknown = await loom.startRunAndWait('wf-1', {}, { waitSeconds: 0.3, pollIntervalMs: 20 }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(RunWaitTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 300, run: { id: 'run-1', status: 'running' } });
    expect(api.to(START_PATH, 'POST')[0]!.query.get('wait')).toBe('300ms');
  });

  test('a refused start throws LoomApiError (422 INVALID_PARAMETERS) and polls nothing', async () => {
    api = await startFakeApi(() => errorAnswer(422, 'INVALID_PARAMETERS', 'parameters do not match'));
    const loom = createLoomClient(api.baseUrl);
    await expect(loom.startRunAndWait('wf-1', { wrong: 1 })).rejects.toMatchObject({ status: 422, code: 'INVALID_PARAMETERS' });
    expect(api.received).toHaveLength(1);
  });
});
