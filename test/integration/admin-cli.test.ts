import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAdmin } from '../../scripts/admin-cli';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, FAST_RETRY, insertDeadLetter, RUN_TEST_CONFIG, runToEnd, toolNode, waitForRun } from '../helpers/runs';

/**
 * The operator CLI as operators run it: a child process (`node --import tsx scripts/admin.ts ...`, or the
 * `scripts/admin` entry point from another directory) with the test run's environment, against dead letters, circuit
 * breakers and runs the real API and worker produced.
 */

const ROOT = path.resolve(__dirname, '..', '..');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], cwd: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function admin(...args: string[]): Promise<CliResult> {
  return run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], ROOT);
}

/** The bash entry point, started from a directory outside the repository. */
function adminScript(...args: string[]): Promise<CliResult> {
  return run('bash', [path.join(ROOT, 'scripts', 'admin'), ...args], tmpdir());
}

/** The one JSON line a successful `--json` command printed, as the shape the test expects. */
function jsonOf<T>(res: CliResult): T {
  expect(res).toMatchObject({ code: 0, stderr: '' });
  const lines = res.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as T;
}

let api: TestApi;
let tenant: TestTenant;
let workflowId: string;
let letterId: string;
let letteredRunId: string;

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
  letteredRunId = run.id;
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
    expect(row!.split(/\s{2,}/).slice(0, 8)).toEqual([letterId, tenant.organizationId, letteredRunId, 'deliver', 'fail', 'deliveries', 'pending', '3']);
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
    expect(replayed).toMatchObject({ retry_of: letteredRunId, trigger: { type: 'dead_letter_replay', deadLetterId: letterId } });

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

describe('the scripts/admin entry point', () => {
  test('answers --help from any directory, and bad usage with one line and exit 2', async () => {
    const help = await adminScript('--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: scripts\/admin \[--json\] <command>/);
    for (const command of ['runs show <run-id>', 'orgs list', 'users show <email|id>', 'dead-letters list']) expect(help.stdout).toContain(command);
    const bad = await adminScript('orgs', 'frob');
    expect(bad).toEqual({ code: 2, stdout: '', stderr: 'admin: unknown action "frob" (list or show); usage: npm run admin -- orgs list [--limit N] | show <id|slug>\n' });
  });

  test('runs a command against the environment it is given', async () => {
    const res = await adminScript('runs', 'show', letteredRunId);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toMatch(new RegExp(`^run\\s+${letteredRunId}$`, 'm'));
  });
});

describe('runs', () => {
  test('show: the run with its organization, status, each node and its links', async () => {
    const res = await admin('runs', 'show', letteredRunId);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const lines = res.stdout.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `organization  ${tenant.organizationId}`,
        expect.stringMatching(new RegExp(`^workflow\\s+${workflowId} \\(version 1\\)$`)),
        expect.stringMatching(/^status\s+completed$/),
        expect.stringMatching(/^trigger\s+manual$/),
        expect.stringMatching(new RegExp(`^picture\\s+https?://\\S+/ui/workflows/${workflowId}/runs/${letteredRunId}/picture$`)),
        expect.stringMatching(/^NODE\s+STATUS\s+ATTEMPTS\s+STARTED\s+FINISHED\s+ERROR$/),
        expect.stringMatching(/^deliver\s+/),
      ]),
    );
  });

  test('show --json: the run as the API shows it, with its organization', async () => {
    const run = jsonOf<{ id: string; organization_id: string; workflow_id: string; status: string; node_states: Record<string, { via?: string }>; links: { picture: string } }>(
      await admin('runs', 'show', letteredRunId, '--json'),
    );
    expect(run).toMatchObject({ id: letteredRunId, organization_id: tenant.organizationId, workflow_id: workflowId, status: 'completed' });
    expect(run.node_states.deliver).toMatchObject({ via: 'dead_letter' });
    const viaApi = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${letteredRunId}`, { token: tenant.owner.token });
    expect(run.links.picture).toBe(viaApi.body.links.picture);
  });

  test('show of an unknown run exits 1 with one line (a JSON error under --json)', async () => {
    const id = randomUUID();
    expect(await admin('runs', 'show', id)).toEqual({ code: 1, stdout: '', stderr: `admin: no run ${id}\n` });
    const json = await admin('--json', 'runs', 'show', id);
    expect(json).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'NOT_FOUND', message: `no run ${id}` } });
  });

  test('list: the organization\'s runs, newest first, filtered by status, in text and JSON', async () => {
    const res = await admin('runs', 'list', '--org', tenant.organizationId, '--status', 'completed');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^RUN\s+WORKFLOW\s+NAME\s+VERSION\s+STATUS\s+TRIGGER\s+CREATED\s+DURATION$/);
    expect(lines.find((l) => l.startsWith(letteredRunId))?.split(/\s{2,}/).slice(0, 2)).toEqual([letteredRunId, workflowId]);
    expect(lines.at(-1)).toMatch(/^admin: [1-9]\d* run\(s\)$/);

    const listed = jsonOf<{ data: { id: string; status: string }[]; more: boolean }>(
      await admin('runs', 'list', '--org', tenant.organizationId, '--status', 'completed', '--limit', '100', '--json'),
    );
    expect(listed.data.map((r) => r.id)).toContain(letteredRunId);
    expect(new Set(listed.data.map((r) => r.status))).toEqual(new Set(['completed']));
    expect(listed.more).toBe(false);
    const one = jsonOf<{ data: unknown[]; more: boolean }>(await admin('--json', 'runs', 'list', '--org', tenant.organizationId, '--limit', '1'));
    expect(one).toMatchObject({ data: [expect.anything()], more: true });
  });

  test.each([
    [['runs', 'list'], /^admin: --org is required; usage: npm run admin -- runs show <run-id> \| list /],
    [['runs', 'list', '--org', 'x'], /^admin: --org must be a UUID, got "x"; usage: /],
    [['runs', 'list', '--org', randomUUID(), '--status', 'done'], /^admin: --status must be one of pending, running, completed, failed, cancelled, got "done"; usage: /],
    [['runs', 'list', '--org', randomUUID(), '--limit', '101'], /^admin: --limit must be an integer from 1 to 100, got "101"; usage: /],
    [['runs', 'show'], /^admin: show takes exactly one run id; usage: /],
    [['runs', 'show', 'nope'], /^admin: the run id must be a UUID, got "nope"; usage: /],
    [['orgs', 'list', '--limit', '0'], /^admin: --limit must be an integer from 1 to 1000, got "0"; usage: /],
    [['orgs', 'show'], /^admin: show takes exactly one organization id or slug; usage: /],
    [['users', 'show'], /^admin: usage: npm run admin -- users show <email\|id>$/],
    [['users', 'list', 'x'], /^admin: unknown action "list" \(show\); usage: /],
  ])('bad usage %j prints one line and exits 2', async (args, message) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(args, { out: (l) => out.push(l), err: (l) => err.push(l), db: api.deps.db });
    expect({ code, out }).toEqual({ code: 2, out: [] });
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(message);
  });
});

describe('orgs', () => {
  test('list: organizations with plan, status and member count; --json gives the same rows', async () => {
    const res = await admin('orgs', 'list', '--limit', '1000');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SLUG\s+NAME\s+PLAN\s+STATUS\s+MEMBERS\s+CREATED$/);
    const row = lines.find((l) => l.startsWith(tenant.organizationId));
    expect(row?.split(/\s{2,}/).slice(3, 6)).toEqual(['pro', 'active', '1']);

    const listed = jsonOf<{ data: { id: string; plan: string; status: string; members: number }[]; more: boolean }>(
      await admin('orgs', 'list', '--limit', '1000', '--json'),
    );
    expect(listed.data.find((o) => o.id === tenant.organizationId)).toMatchObject({ plan: 'pro', status: 'active', members: 1 });
  });

  test('show: one organization by id or by slug, with its owners', async () => {
    const { slug } = await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug');
    const bySlug = await admin('orgs', 'show', slug);
    expect(bySlug).toMatchObject({ code: 0, stderr: '' });
    expect(bySlug.stdout).toMatch(new RegExp(`^organization\\s+${tenant.organizationId}$`, 'm'));
    expect(bySlug.stdout).toMatch(new RegExp(`^owners\\s+${tenant.owner.email}$`, 'm'));
    expect(bySlug.stdout).toMatch(/^members\s+1$/m);

    const byId = jsonOf<Record<string, unknown>>(await admin('--json', 'orgs', 'show', tenant.organizationId));
    expect(byId).toMatchObject({ id: tenant.organizationId, slug, plan: 'pro', status: 'active', members: 1, owners: [tenant.owner.email], pendingInvitations: 0 });
  });

  test('show of an unknown organization exits 1', async () => {
    expect(await admin('orgs', 'show', 'no-such-org-slug')).toEqual({ code: 1, stdout: '', stderr: 'admin: no organization with id or slug "no-such-org-slug"\n' });
  });
});

describe('users', () => {
  test('show: memberships, two-factor sign-in and live sessions, by e-mail or id', async () => {
    const res = await admin('users', 'show', tenant.owner.email.toUpperCase());
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toMatch(new RegExp(`^user\\s+${tenant.owner.userId}$`, 'm'));
    expect(res.stdout).toMatch(/^2fa\s+off$/m);
    expect(res.stdout).toMatch(/^sessions\s+1 live$/m);
    expect(res.stdout).toMatch(/^ORGANIZATION\s+SLUG\s+NAME\s+ROLE\s+STATUS\s+JOINED$/m);
    expect(res.stdout).toMatch(new RegExp(`^${tenant.organizationId}\\s+\\S+\\s+.+\\s+owner\\s+active\\s+\\S+$`, 'm'));

    // two-factor sign-in on, and a second live session
    await api.deps.db('user_two_factor').insert({ user_id: tenant.owner.userId, secret_enc: 'not-used-here', enabled_at: new Date() });
    const second = await api.deps.db('sessions').where({ id: tenant.owner.sessionId }).first();
    await api.deps.db('sessions').insert({ ...second, id: randomUUID(), token: createHash('sha256').update(randomUUID()).digest('hex') });
    const user = jsonOf<Record<string, unknown>>(await admin('users', 'show', tenant.owner.userId, '--json'));
    expect(user).toMatchObject({
      id: tenant.owner.userId,
      email: tenant.owner.email,
      twoFactorEnabled: true,
      liveSessions: 2,
      memberships: [{ organizationId: tenant.organizationId, role: 'owner', status: 'active' }],
    });
    expect(JSON.stringify(user)).not.toMatch(/password|secret|token/i);
  });

  test('show of an unknown user exits 1', async () => {
    expect(await admin('users', 'show', 'nobody@example.com')).toEqual({ code: 1, stdout: '', stderr: 'admin: no user with e-mail or id "nobody@example.com"\n' });
  });
});

describe('--json for the other commands', () => {
  test('dead-letters list and circuit-breakers answer one JSON document with the API\'s fields', async () => {
    const letters = jsonOf<{ data: { id: string; organization_id: string; run_id: string; node_id: string; queue: string }[]; more: boolean }>(
      await admin('dead-letters', 'list', '--org', tenant.organizationId, '--json'),
    );
    expect(letters.data.find((l) => l.id === letterId)).toMatchObject({ organization_id: tenant.organizationId, run_id: letteredRunId, node_id: 'deliver', queue: 'deliveries' });
    const breakers = jsonOf<{ data: { organization_id: string; tool: string; state: string; half_opens_at: string | null }[] }>(
      await admin('--json', 'circuit-breakers', '--org', tenant.organizationId),
    );
    expect(breakers.data).toEqual([expect.objectContaining({ organization_id: tenant.organizationId, tool: 'fail', state: 'open', half_opens_at: expect.any(String) })]);
  });

  test('help lists every command; bad usage is one JSON error line on stderr and exit 2', async () => {
    const help = jsonOf<{ commands: { command: string }[] }>(await admin('--json', '--help'));
    expect(help.commands.map((c) => c.command)).toEqual(expect.arrayContaining(['runs', 'orgs', 'users', 'dead-letters', 'purge-retention']));
    const bad = await admin('--json', 'dead-letters', 'list', '--limit', '0');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(bad.stderr)).toEqual({ error: { code: 'USAGE_ERROR', message: expect.stringMatching(/^--limit must be an integer from 1 to 1000, got "0"; usage: /) } });
  });
});
