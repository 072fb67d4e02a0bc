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

test('it prints the run\'s picture link (which answers its page) and its console link', async () => {
  const steps: string[] = [];
  const result = await runQuickstart(api.baseUrl, (message) => steps.push(message));
  expect(result.consoleUrl).toBe(`${api.baseUrl.replace(/\/+$/, '')}/console/#/runs/${result.workflowId}/${result.runId}`);
  const [picture, fragment] = result.pictureUrl.split('#');
  expect(picture).toMatch(new RegExp(`/ui/workflows/${result.workflowId}/runs/${result.runId}/picture$`));
  expect(fragment).toMatch(/^token=[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(steps).toEqual(expect.arrayContaining([`picture: ${result.pictureUrl}`, `console: ${result.consoleUrl}`]));
  // The link is made of SERVICE_PUBLIC_URL; this test's API listens elsewhere.
  const page = await fetch(`${api.baseUrl}${new URL(picture!).pathname}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
});
