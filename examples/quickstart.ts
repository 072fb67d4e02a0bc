/**
 * Quickstart with the typed client: register, create an organization, switch to it, create a workflow with one
 * json_transform node, start a run and poll it until it finishes.
 *
 *   npm run api & npm run worker &        # a running API and worker (see README)
 *   npm run example -- http://127.0.0.1:3000
 */
import { randomUUID } from 'node:crypto';
import { createLoomClient } from '../client';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export type StepLogger = (message: string, detail?: unknown) => void;

const printStep: StepLogger = (message, detail) => {
  console.log(`• ${message}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
};

/** The client answers `{ data, error }`; an error envelope stops the example with its code and message. */
function ok<T>(what: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    throw new Error(`${what} failed (HTTP ${result.response.status}): ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

export interface QuickstartResult {
  workflowId: string;
  runId: string;
  status: string;
  results: unknown;
}

/** The whole walk-through; the end-to-end test runs it against an in-process API. */
export async function runQuickstart(baseUrl: string, step: StepLogger = printStep): Promise<QuickstartResult> {
  const loom = createLoomClient(baseUrl);

  const email = `quickstart-${randomUUID().slice(0, 8)}@example.com`;
  const registered = ok(
    'register',
    await loom.POST('/api/auth/register', { body: { email, password: `Quick-${randomUUID()}!9`, name: 'Quickstart' } }),
  );
  loom.setToken(registered.tokens.accessToken);
  step('registered', { userId: registered.user.id, email });

  const organization = ok(
    'create organization',
    await loom.POST('/api/v1/organizations', { body: { name: `Quickstart ${randomUUID().slice(0, 6)}` } }),
  );
  step('created organization', { id: organization.id, slug: organization.slug });

  const switched = ok(
    'switch organization',
    await loom.POST('/api/auth/switch-organization', { body: { organizationID: organization.id } }),
  );
  loom.setToken(switched.accessToken);
  step('switched to it (new token carries the organization)');

  const workflow = ok(
    'create workflow',
    await loom.POST('/api/v1/workflows', {
      body: {
        name: 'Quickstart greeting',
        dag: {
          nodes: [
            {
              id: 'greet',
              type: 'tool',
              config: {
                tool: 'json_transform',
                config: { expression: '{ "greeting": "Hello, " & name & "!" }', data: { name: 'Loom' } },
              },
            },
          ],
        },
      },
    }),
  );
  step('created workflow', { id: workflow.id, version: workflow.version, status: workflow.status });

  const started = ok(
    'start run',
    await loom.POST('/api/v1/workflows/{id}/runs', {
      params: { path: { id: workflow.id } },
      body: { parameters: {} },
      headers: { 'Idempotency-Key': randomUUID() },
    }),
  );
  step('started run', { id: started.id, status: started.status });

  let run = started;
  const deadline = Date.now() + 60_000;
  while (!TERMINAL.has(run.status)) {
    if (Date.now() > deadline) throw new Error(`run ${run.id} still ${run.status} after 60 s`);
    await new Promise((r) => setTimeout(r, 500));
    run = ok(
      'read run',
      await loom.GET('/api/v1/workflows/{id}/runs/{run_id}', { params: { path: { id: workflow.id, run_id: started.id } } }),
    );
    step(`run is ${run.status}`);
  }
  step('results', run.results);
  if (run.status !== 'completed') step('errors', run.errors);
  return { workflowId: workflow.id, runId: run.id, status: run.status, results: run.results };
}

if (require.main === module) {
  runQuickstart(process.argv[2] ?? 'http://127.0.0.1:3000').then(
    (result) => process.exit(result.status === 'completed' ? 0 : 1),
    (err: unknown) => {
      console.error(`quickstart: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
