import { randomUUID } from 'node:crypto';
import { runAdmin } from '../../scripts/admin-cli';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * `scripts/admin temporal-setup` (docs/scaling.md#temporal-connection): on a namespace that does not exist yet it
 * creates it with the retention asked for and registers Loom's search attributes, waiting until a start would take
 * them; a second call changes nothing; an API on that namespace is then ready.
 */

const namespace = `loom-setup-${randomUUID().slice(0, 8)}`;
const env = { ...process.env, TEMPORAL_NAMESPACE: namespace };
let api: TestApi | undefined;
afterAll(async () => {
  await api?.close();
});

async function admin(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { code, out, err };
}

test('creates the namespace and the search attributes once; the API on it is ready', async () => {
  const first = await admin('temporal-setup', '--retention', '3d', '--json');
  expect(first).toMatchObject({ code: 0, err: [] });
  const report = JSON.parse(first.out[0]!);
  expect(report).toMatchObject({ namespace, created: true, retentionDays: 3 });
  expect(report.searchAttributesAdded).toEqual(expect.arrayContaining(['LoomTrigger', 'LoomOrganizationId', 'LoomRunKind']));

  const again = await admin('temporal-setup');
  expect(again.code).toBe(0);
  expect(again.out).toEqual([`admin: namespace ${namespace} present (retention 3 days)`, 'admin: search attributes all present; runs can start']);

  api = await startApi({ TEMPORAL_NAMESPACE: namespace });
  const ready = await api.request('GET', '/readyz');
  expect(ready.status).toBe(200);
  expect(ready.body.services.temporal.checks.searchAttributes).toEqual({ ok: true });
});

test('bad usage is one line and exit 2', async () => {
  expect(await admin('temporal-setup', '--retention', '2h')).toMatchObject({ code: 2, err: [expect.stringMatching(/--retention must be at least 1d/)] });
  expect(await admin('temporal-setup', '--retention', 'soon')).toMatchObject({ code: 2, err: [expect.stringMatching(/--retention must be a duration/)] });
});
