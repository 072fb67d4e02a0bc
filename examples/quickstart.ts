/**
 * Quickstart with the typed client (`@loom/client`, client/): register, create an organization, switch to it, create
 * a workflow with one json_transform node, start a run and wait for it to finish (server-side, docs/runs.md#run-and-wait),
 * then print where to see it: the run's picture page and its page in the console (`/console`).
 *
 *   npm run api & npm run worker &        # a running API and worker (see README)
 *   npm run example -- http://127.0.0.1:3000
 */
import { randomUUID } from 'node:crypto';
import { createLoomClient, LoomApiError, unwrap } from '../client/index';

export type StepLogger = (message: string, detail?: unknown) => void;

const printStep: StepLogger = (message, detail) => {
  console.log(`• ${message}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
};

export interface QuickstartResult {
  workflowId: string;
  runId: string;
  status: string;
  results: unknown;
  /** the run's picture page, signed in by the access token in its fragment (which stays in the browser) */
  pictureUrl: string;
  /** the run's page in the web console */
  consoleUrl: string;
}

/** The run's page in the console served by the API at `/console` (a hash route: `#/runs/<workflow>/<run>`). */
export function consoleRunUrl(baseUrl: string, workflowId: string, runId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/console/#/runs/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}`;
}

/** The run's picture link (`links.picture`) opened as the README does: the access token in the fragment. */
export function pictureUrlWithToken(picture: string, accessToken: string | null | undefined): string {
  return accessToken ? `${picture}#token=${encodeURIComponent(accessToken)}` : picture;
}

/** The whole walk-through; the end-to-end test runs it against an in-process API. */
export async function runQuickstart(baseUrl: string, step: StepLogger = printStep): Promise<QuickstartResult> {
  const loom = createLoomClient(baseUrl);

  // unwrap: the answer's data, or a thrown LoomApiError (status, code, message, requestId).
  const email = `quickstart-${randomUUID().slice(0, 8)}@example.com`;
  const registered = unwrap(
    await loom.POST('/api/auth/register', { body: { email, password: `Quick-${randomUUID()}!9`, name: 'Quickstart' } }),
  );
  // The pair: later requests carry the access token, and an expired one is refreshed with the refresh token.
  loom.useTokens(registered.tokens);
  step('registered', { userId: registered.user.id, email });

  const organization = unwrap(await loom.POST('/api/v1/organizations', { body: { name: `Quickstart ${randomUUID().slice(0, 6)}` } }));
  step('created organization', { id: organization.id, slug: organization.slug });

  loom.useTokens(unwrap(await loom.POST('/api/auth/switch-organization', { body: { organizationID: organization.id } })));
  step('switched to it (new token pair carries the organization)');

  const workflow = unwrap(
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

  // POST .../runs?wait=: the API answers once the run has finished; if it is still open when the API stops waiting
  // (202), the client polls the run for the rest of the 60 s. The key makes a retried call start nothing new.
  step('starting a run and waiting for it');
  const run = await loom.startRunAndWait(workflow.id, {}, { waitSeconds: 60, idempotencyKey: randomUUID() });
  step(`run is ${run.status}`, { id: run.id });
  step('results', run.results);
  if (run.status !== 'completed') step('errors', run.errors);
  const pictureUrl = pictureUrlWithToken(run.links.picture, loom.tokens().accessToken);
  const consoleUrl = consoleRunUrl(baseUrl, workflow.id, run.id);
  step(`picture: ${pictureUrl}`);
  step(`console: ${consoleUrl}`);
  return { workflowId: workflow.id, runId: run.id, status: run.status, results: run.results, pictureUrl, consoleUrl };
}

if (require.main === module) {
  runQuickstart(process.argv[2] ?? 'http://127.0.0.1:3000').then(
    (result) => process.exit(result.status === 'completed' ? 0 : 1),
    (err: unknown) => {
      const reason =
        err instanceof LoomApiError ? `HTTP ${err.status} ${err.code}: ${err.message} (request ${err.requestId ?? '?'})` : (err as Error).message;
      console.error(`quickstart: ${reason}`);
      process.exit(1);
    },
  );
}
