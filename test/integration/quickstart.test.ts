import { runQuickstart } from '../../examples/quickstart';
import { startApi, type TestApi } from '../helpers/stack';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.close();
});

test('the quickstart example runs end to end through the typed client', async () => {
  const steps: string[] = [];
  const result = await runQuickstart(api.baseUrl, (message) => steps.push(message));
  expect(result.status).toBe('completed');
  expect(JSON.stringify(result.results)).toContain('Hello, Loom!');
  expect(steps).toEqual(
    expect.arrayContaining(['registered', 'created organization', 'created workflow', 'starting a run and waiting for it', 'run is completed']),
  );
});
