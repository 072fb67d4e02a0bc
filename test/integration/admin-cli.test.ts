import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { runAdmin } from '../../scripts/admin';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, FAST_RETRY, insertDeadLetter, RUN_TEST_CONFIG, runToEnd, toolNode, waitForRun } from '../helpers/runs';

/**
 * The operator CLI as operators run it: a child process (`node --import tsx scripts/admin.ts ...`) with the test
 * run's environment, against dead letters and circuit breakers the real API and worker produced.
 */

const ROOT = path.resolve(__dirname, '..', '..');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function admin(...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/admin.ts', ...args],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let api: TestApi;
let tenant: TestTenant;
let workflowId: string;
let letterId: string;
let failedRunId: string;

beforeAll(async () => {
  api = await startApi(RUN_TEST_CONFIG);
  tenant = await createTestTenant(api);
  // A dead letter: an always-failing node under the dead_letter_queue strategy.
  workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('deliver', 'fail', { mode: 'always', message: 'receiver down' })],
    errorHandling: {
      retry_config: FAST_RETRY,
      node_overrides: { deliver: { strategy: 'dead_letter_queue', dead_letter_queue: { queue: 'deliveries', retention: '2d' } } },
    },
  });
  const run = await runToEnd(api, tenant.owner.token, workflowId);
  expect(run.node_states.deliver).toMatchObject({ via: 'dead_letter' });
  failedRunId = run.id;
  const letters = await api.request('GET', `/api/v1/dead-letters?run_id=${run.id}`, { token: tenant.owner.token });
  letterId = letters.body.data[0].id;

  // An open circuit breaker: one failure opens it (threshold 1) for ten minutes.
  const breakerWorkflow = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('call', 'fail', { mode: 'always', code: 'UPSTREAM_DOWN' })],
    errorHandling: { default_strategy: 'circuit_breaker', circuit_breaker: { threshold: 1, timeout: 600_000 }, retry_config: { max_attempts: 1 } },
  });
  expect((await runToEnd(api, tenant.owner.token, breakerWorkflow)).status).toBe('failed');
});
afterAll(async () => {
  await api.close();
});

describe('dead-letters list', () => {
  test('lists the letter of the organization with its node, tool, queue, status and error', async () => {
    const res = await admin('dead-letters', 'list', '--org', tenant.organizationId);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+ORGANIZATION\s+RUN\s+NODE\s+TOOL\s+QUEUE\s+STATUS\s+ATTEMPTS\s+CREATED\s+ERROR$/);
    const row = lines.find((l) => l.startsWith(letterId));
    expect(row).toBeDefined();
    expect(row!.split(/\s{2,}/).slice(0, 8)).toEqual([letterId, tenant.organizationId, failedRunId, 'deliver', 'fail', 'deliveries', 'pending', '3']);
    expect(row).toContain('receiver down');
    expect(lines.at(-1)).toBe('admin: 1 dead letter(s)');
  });

  test('without --org it lists across organizations; --limit bounds the rows', async () => {
    const [all, one] = await Promise.all([admin('dead-letters', 'list'), admin('dead-letters', 'list', '--limit', '1')]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain(letterId);
    expect(one.code).toBe(0);
    expect(one.stdout.trim().split('\n')).toHaveLength(3); // header, one row, summary
  });

  test('an organization without dead letters says so', async () => {
    const other = await createTestTenant(api);
    expect(await admin('dead-letters', 'list', '--org', other.organizationId)).toEqual({ code: 0, stdout: 'admin: no dead letters\n', stderr: '' });
  });

  test.each([
    [['dead-letters'], /^admin: usage: npm run admin -- dead-letters list/],
    [['dead-letters', 'frob'], /^admin: unknown action "frob" \(list or replay\); usage: /],
    [['dead-letters', 'list', '--org', 'not-a-uuid'], /^admin: --org must be a UUID, got "not-a-uuid"; usage: /],
    [['dead-letters', 'list', '--limit', 'ten'], /^admin: --limit must be an integer from 1 to 1000, got "ten"; usage: /],
    [['dead-letters', 'list', '--colour', 'red'], /^admin: unexpected argument "--colour"; usage: /],
    [['dead-letters', 'replay', 'x'], /^admin: the dead letter id must be a UUID, got "x"; usage: /],
    [['circuit-breakers', '--org'], /^admin: --org needs a value; usage: /],
    [['purge-retention', 'now'], /^admin: usage: npm run admin -- purge-retention$/],
    [['launch-missiles'], /^admin: unknown command "launch-missiles"; usage: /],
  ])('bad usage %j prints one line and exits 2', async (args, message) => {
    // In-process (the same entry point the script calls) to keep the suite fast; the child process is tested below.
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(args, { out: (l) => out.push(l), err: (l) => err.push(l), db: api.deps.db });
    expect({ code, out }).toEqual({ code: 2, out: [] });
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(message);
  });

  test('bad usage exits the process with code 2 and one line on stderr', async () => {
    const res = await admin('dead-letters', 'list', '--limit', '0');
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr: 'admin: --limit must be an integer from 1 to 1000, got "0"; usage: npm run admin -- dead-letters list [--org <id>] [--limit N] | replay <id>\n',
    });
  });
});

describe('dead-letters replay', () => {
  test('replays the letter as a new run of the same workflow; a second replay is refused', async () => {
    const res = await admin('dead-letters', 'replay', letterId);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const match = /^admin: replayed dead letter (\S+) as run (\S+) \(workflow (\S+), status (\w+)\)$/.exec(res.stdout.trim());
    expect(match).not.toBeNull();
    const [, replayedLetter, replayRunId, replayWorkflow] = match!;
    expect(replayedLetter).toBe(letterId);
    expect(replayWorkflow).toBe(workflowId);

    const letter = await api.deps.db('dead_letters').where({ id: letterId }).first();
    expect(letter).toMatchObject({ status: 'replayed', replay_run_id: replayRunId });
    const replayed = await waitForRun(api, tenant.owner.token, workflowId, replayRunId!);
    expect(replayed).toMatchObject({ retry_of: failedRunId, trigger: { type: 'dead_letter_replay', deadLetterId: letterId } });

    const again = await admin('dead-letters', 'replay', letterId);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`admin: cannot replay dead letter ${letterId}: dead letter was already replayed (run ${replayRunId})`);
  });

  test('an unknown id is a clear error', async () => {
    const id = randomUUID();
    expect(await admin('dead-letters', 'replay', id)).toEqual({ code: 1, stdout: '', stderr: `admin: no dead letter ${id}\n` });
  });
});

describe('circuit-breakers', () => {
  test('shows the open breaker of the failing tool with its failures and half-open time', async () => {
    const res = await admin('circuit-breakers', '--org', tenant.organizationId);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ORGANIZATION\s+TOOL\s+SCOPE\s+STATE\s+FAILURES\s+OPENED\s+HALF-OPEN AT\s+LAST ERROR$/);
    const cells = lines[1]!.split(/\s{2,}/);
    // the fail tool names no destination: its breaker covers the tool as a whole
    expect(cells.slice(0, 5)).toEqual([tenant.organizationId, 'fail', '-', 'open', '1']);
    const [opened, halfOpenAt] = [Date.parse(cells[5]!), Date.parse(cells[6]!)];
    expect(halfOpenAt - opened).toBe(600_000);
    expect(cells[7]).toMatch(/^UPSTREAM_DOWN: /);
    expect(lines.at(-1)).toBe('admin: 1 circuit breaker(s), 1 not closed');
  });
});

describe('purge-retention', () => {
  test('deletes what is past retention in every store and keeps what is not', async () => {
    const { db } = api.deps;
    const t = await createTestTenant(api);
    const day = 86_400_000;
    // dead letters: one expired, one live
    const expiredLetterId = await insertDeadLetter(api, t.organizationId, new Date(Date.now() - 1000));
    const liveLetterId = await insertDeadLetter(api, t.organizationId, new Date(Date.now() + day));
    // audit logs: this organization keeps 30 days
    await db('organizations').where({ id: t.organizationId }).update({ settings: JSON.stringify({ security: { auditLogRetentionDays: 30 } }) });
    await db('audit_logs').insert([
      { organization_id: t.organizationId, actor_type: 'system', action: 'admin.old', created_at: new Date(Date.now() - 40 * day) },
      { organization_id: t.organizationId, actor_type: 'system', action: 'admin.recent', created_at: new Date(Date.now() - 10 * day) },
    ]);
    // idempotency keys: a real one from a keyed run start, then one made to expire
    const fastWorkflow = await createWorkflowFixture(api, t, { nodes: [toolNode('only', 'json_transform', { expression: '$', data: 1 })] });
    for (const key of ['admin-expired', 'admin-live']) {
      const res = await api.request('POST', `/api/v1/workflows/${fastWorkflow}/runs`, {
        token: t.owner.token,
        headers: { 'Idempotency-Key': key },
        body: { parameters: {} },
      });
      expect(res.status).toBe(201);
    }
    await db('idempotency_keys').where({ organization_id: t.organizationId, key: 'admin-expired' }).update({ expires_at: new Date(Date.now() - 1000) });
    // auth codes: one spent, one expired, one usable
    const code = (purpose: string, expiresAt: Date, usedAt: Date | null) => ({
      user_id: t.owner.userId,
      purpose,
      token_hash: createHash('sha256').update(randomUUID()).digest('hex'),
      expires_at: expiresAt,
      used_at: usedAt,
    });
    const codes = await db('auth_tokens')
      .insert([
        code('password_reset', new Date(Date.now() + day), new Date()),
        code('email_verification', new Date(Date.now() - 1000), null),
        code('password_reset', new Date(Date.now() + day), null),
      ])
      .returning('id');

    const res = await admin('purge-retention');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^admin: purged [1-9]\d* dead letter\(s\) past retention$/);
    expect(lines[1]).toMatch(/^admin: purged [1-9]\d* audit log entry\(ies\) past their organization's retention$/);
    expect(lines[2]).toMatch(/^admin: purged [1-9]\d* expired idempotency key\(s\)$/);
    expect(lines[3]).toMatch(/^admin: purged \d+ dead session\(s\) and (?:[2-9]|[1-9]\d+) spent or expired auth code\(s\)$/);

    expect(await db('dead_letters').where({ id: expiredLetterId }).first()).toBeUndefined();
    expect(await db('dead_letters').where({ id: liveLetterId }).first()).toBeDefined();
    expect((await db('audit_logs').where({ organization_id: t.organizationId }).whereLike('action', 'admin.%')).map((r) => r.action)).toEqual(['admin.recent']);
    expect((await db('idempotency_keys').where({ organization_id: t.organizationId })).map((r) => r.key)).toEqual(['admin-live']);
    expect((await db('auth_tokens').whereIn('id', codes.map((c) => c.id))).map((r) => r.id)).toEqual([codes[2].id]);
  });
});
