import type { TestApi } from '../helpers/stack';
import { runToEnd, toolNode, useRunApi } from '../helpers/runs';

/**
 * Issue 22: tool nodes with an empty config. json_transform has a neutral behaviour (the identity) and takes
 * `config: {}`; a tool without one refuses it at save time with a problem that names the missing key and shows a
 * minimal config of the tool.
 */

let api: TestApi;
let token: string;

useRunApi((started) => ({ api, token } = started));

const create = (nodes: unknown[], edges: { from: string; to: string }[] = []) =>
  api.request('POST', '/api/v1/workflows', { token, body: { name: `empty config ${nodes.length}`, dag: { nodes, edges } } });

test('a json_transform node with config {} (or none) is saved and runs as the identity', async () => {
  const created = await create(
    [
      toolNode('source', 'json_transform', { expression: '{"order": 7, "items": ["a", "b"]}' }),
      toolNode('same', 'json_transform', {}, { inputs: [{ name: 'data', from: 'source.result' }] }),
      { id: 'bare', type: 'tool', config: { tool: 'json_transform' } },
    ],
    [
      { from: 'source', to: 'same' },
      { from: 'source', to: 'bare' },
    ],
  );
  expect(created.status).toBe(201);
  expect((await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token })).status).toBe(200);
  const run = await runToEnd(api, token, created.body.id);
  expect(run.status).toBe('completed');
  expect(run.results).toEqual({ same: { result: { order: 7, items: ['a', 'b'] } }, bare: { result: null } });
});

test('a tool without a neutral behaviour refuses an empty config, naming the key with an example', async () => {
  const res = await create([toolNode('fetch', 'http_request', {}), toolNode('mail', 'email_send', { to: 'ops@example.com' })]);
  expect(res.status).toBe(422);
  expect(res.body.error.code).toBe('WORKFLOW_INVALID');
  const problems = res.body.error.details as { path: string; problem: string }[];
  const url = problems.find((p) => p.path.endsWith('fetch.config.config.url'));
  expect(url?.problem).toBe('required: the http_request tool needs "url"; for example {"url":"https://api.example.com/items"}');
  const subject = problems.find((p) => p.path.endsWith('mail.config.config.subject'));
  expect(subject?.problem).toContain('required: the email_send tool needs "subject"; for example {"to":"ops@example.com","subject":');
});
