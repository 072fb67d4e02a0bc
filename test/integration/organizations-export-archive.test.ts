import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { ApplicationFailure } from '@temporalio/common';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { organizationCleaners } from '../../activities/organizations/cleaners';
import { exportArchiveKey, EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../domain/organizations/exportArchive';
import { MIN_PART_BYTES, startMultipartUpload } from '../../lib/archive/multipartUpload';
import { organizationPrefix } from '../../lib/storage';
import { createWorker } from '../../worker/createWorker';
import { uploadContent } from '../helpers/content';
import { waitForMail } from '../helpers/mail';
import { createNamedTestUser, createTestApiKey, setTestPassword } from '../helpers/organizations';
import { addWorkflowVersion, createWorkflowFixture, runToEnd, toolNode } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { readTarEntries } from '../helpers/tar';
import { addTestMember } from '../helpers/tenants';

/**
 * Issue 25: the deletion export is a real backup. An organization with content (several versions, binary bytes),
 * workflows with two versions, a finished run, secrets in its settings, members and an invitation is deleted with
 * `exportData`; the archive is downloaded through the link, unpacked with node-tar, and every original byte, every
 * manifest checksum, the masking of secrets and the order (export written before anything was removed) are checked.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startApi({ SERVICE_ORGANIZATION_EXPORT_TTL: '10m' });
});
afterAll(async () => {
  await api.close();
});

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const PASSWORD = 'Export-Horse-9!';

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Every record of a JSON Lines collection, across its parts. */
function records(files: Map<string, Buffer>, dir: string): Json[] {
  return [...files.keys()]
    .filter((p) => p.startsWith(`${dir}/part-`))
    .sort()
    .flatMap((p) => files.get(p)!.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)));
}

interface Uploaded {
  contentId: string;
  version: number;
  filename: string;
  bytes: Buffer;
}

/** An organization created through the API (so its lifecycle workflow ran) with an owner who has a password. */
async function createOrganization() {
  const owner = await createNamedTestUser(api);
  await setTestPassword(api, owner.userId, PASSWORD);
  const created = await api.request('POST', '/api/v1/organizations', { token: owner.token, body: { name: `Backup ${randomUUID().slice(0, 6)}` } });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  await api.deps.db('sessions').where({ id: owner.sessionId }).update({ active_organization_id: id });
  await waitFor(() => api.deps.db('billing_subscriptions').where({ organization_id: id }).first(), (s) => !!s, 'subscription');
  await api.deps.db('organizations').where({ id }).update({ plan: 'pro' });
  return { id, owner, tenant: { organizationId: id, owner } };
}

test('the deletion export holds every byte, every version and record, masks every secret, and is written before anything is removed', async () => {
  const { id, owner, tenant } = await createOrganization();
  const token = owner.token;

  // Content: a text file, a binary with two versions, a binary with three versions under a non-ASCII name.
  const uploaded: Uploaded[] = [];
  const first = async (filename: string, bytes: Buffer) => {
    const res = await uploadContent(api, token, { bytes, filename, title: filename });
    expect([filename, res.status]).toEqual([filename, 201]);
    uploaded.push({ contentId: res.body.id, version: 1, filename, bytes });
    return res.body.id as string;
  };
  const next = async (contentId: string, version: number, filename: string, bytes: Buffer) => {
    const res = await uploadContent(api, token, { bytes, filename }, `/api/v1/content/${contentId}/versions`);
    expect([filename, res.status]).toEqual([filename, 201]);
    uploaded.push({ contentId, version, filename, bytes });
  };
  await first('notes.txt', Buffer.from('plain notes\n'.repeat(50)));
  const binary = await first('blob.bin', randomBytes(300_000));
  await next(binary, 2, 'blob.bin', randomBytes(1_500_000));
  const unicode = await first(`Überweisung — ${'é'.repeat(60)}.bin`, randomBytes(40_000));
  await next(unicode, 2, `Überweisung — ${'é'.repeat(60)}.bin`, Buffer.concat([randomBytes(1000), Buffer.alloc(5000, 0)]));
  await next(unicode, 3, 'renamed.bin', randomBytes(77_777));

  // Workflows: one with two versions, one with a finished run.
  const twoVersions = await createWorkflowFixture(api, tenant, { name: 'two versions', nodes: [toolNode('a', 'json_transform', { expression: '1' })] });
  await addWorkflowVersion(api, tenant, twoVersions, 2, { name: 'two versions', nodes: [toolNode('a', 'json_transform', { expression: '2' })] });
  const runWorkflow = await createWorkflowFixture(api, tenant, { name: 'runs once', nodes: [toolNode('t', 'json_transform', { expression: '{"sum": 40 + 2}' })] });
  const run = await runToEnd(api, token, runWorkflow);
  expect(run.status).toBe('completed');

  // Secrets: settings (webhook, SSO, third party), an organization secret, an API key, an invitation token.
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const ssoSecret = `sso-client-secret-${randomUUID()}`;
  const crmToken = `crm-token-${randomUUID()}`;
  const orgSecret = `org-secret-value-${randomUUID()}`;
  const settings = await api.request('PUT', `/api/v1/organizations/${id}/settings`, {
    token,
    body: {
      general: { timezone: 'Europe/Paris' },
      integration: {
        webhooks: [{ url: 'https://93.184.215.14/loom-hook', events: ['content.created'], secret: webhookSecret }],
        thirdParty: { crm: { config: { region: 'eu' }, secrets: { token: crmToken } } },
        sso: { enabled: false, protocol: 'oidc', oidc: { issuer: 'https://id.example.com', clientId: 'loom-client', clientSecret: ssoSecret } },
      },
    },
  });
  expect(settings.status).toBe(200);
  expect((await api.request('PUT', '/api/v1/secrets/CRM_PASSWORD', { token, body: { value: orgSecret } })).status).toBe(201);
  const apiKey = await createTestApiKey(api, id, token, 'viewer');
  const admin = await addTestMember(api, tenant, 'admin');
  const invitee = `invitee-${randomUUID().slice(0, 8)}@example.com`;
  expect((await api.request('POST', `/api/v1/organizations/${id}/invitations`, { token, body: { email: invitee, role: 'viewer' } })).status).toBe(201);
  const hashes = [
    ...(await api.deps.db('api_keys').where({ organization_id: id }).pluck('key_hash')),
    ...(await api.deps.db('invitations').where({ organization_id: id }).pluck('token_hash')),
    ...(await api.deps.db('organization_secrets').where({ organization_id: id }).pluck('value_enc')),
  ] as string[];
  expect(hashes).toHaveLength(3);
  const sealed = JSON.stringify((await api.deps.db('organizations').where({ id }).first()).settings);
  const sealedValues = [...sealed.matchAll(/"enc":"([^"]+)"/g)].map((m) => m[1]!);
  expect(sealedValues.length).toBeGreaterThanOrEqual(3);

  // Delete with the export.
  const res = await api.request('DELETE', `/api/v1/organizations/${id}`, { token, body: { password: PASSWORD, exportData: true } });
  expect(res.status).toBe(202);
  const status = await waitFor(
    () => api.request('GET', `/api/v1/organizations/${id}/deletion`, { token }),
    (r) => r.status === 200 && ['completed', 'failed'].includes(r.body.status),
    'deletion to complete',
    180_000,
  );
  expect(status.body.status).toBe('completed');
  expect(status.body.stepsDone).toEqual([
    'mark-deleting',
    'export',
    'cancel-subscriptions',
    ...organizationCleaners.map((c) => `clean:${c.name}`),
    'delete-objects',
    'delete-records',
    'confirm',
  ]);
  const url = status.body.exportUrl as string;
  expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('600');
  const progress = await api.deps.temporal.workflow.getHandle(`org-delete-${id}`).query<Json>('deletionProgress');

  // The content objects are gone; the archive is not.
  const left: string[] = [];
  for await (const item of api.deps.storage.listObjectsV2(api.config.minio.bucket, organizationPrefix(id), true)) left.push(item.name!);
  expect(left).toEqual([]);

  // Download through the signed link, as the owner's browser would (no credentials).
  const download = await fetch(url);
  expect(download.status).toBe(200);
  expect(download.headers.get('content-disposition')).toMatch(/attachment; filename="loom-organization-.*\.tar\.gz"/);
  const archive = Buffer.from(await download.arrayBuffer());
  expect(archive.length).toBe(progress.export.bytes);
  expect(sha256(archive)).toBe(progress.export.sha256);
  const tar = gunzipSync(archive);
  const files = await readTarEntries(tar);

  // The manifest lists every other entry with its size and SHA-256, and they match.
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
  expect(manifest).toMatchObject({ format: EXPORT_FORMAT, formatVersion: EXPORT_FORMAT_VERSION, organization: { id }, missingFiles: [] });
  expect([...files.keys()].filter((p) => p !== 'manifest.json').sort()).toEqual(manifest.entries.map((e: { path: string }) => e.path).sort());
  for (const entry of manifest.entries) {
    const data = files.get(entry.path)!;
    expect([entry.path, data.length, sha256(data)]).toEqual([entry.path, entry.size, entry.sha256]);
  }

  // Every version of every content item, byte for byte, next to its record.
  const versions = records(files, 'content-versions');
  expect(versions).toHaveLength(uploaded.length);
  for (const u of uploaded) {
    const record = versions.find((v) => v.content_id === u.contentId && v.version === u.version);
    expect(record).toMatchObject({ sha256: sha256(u.bytes), fileMissing: false, fileMatchesRecord: true });
    const bytes = files.get(record.file)!;
    expect([record.file, bytes.length, sha256(bytes)]).toEqual([record.file, u.bytes.length, sha256(u.bytes)]);
    expect(bytes.equals(u.bytes)).toBe(true);
    expect(manifest.entries.find((e: { path: string }) => e.path === record.file)).toMatchObject({ kind: 'content-file', matchesRecord: true });
  }
  expect(versions.find((v) => v.content_id === unicode && v.version === 1).file).toContain('Überweisung');
  const content = records(files, 'content');
  expect(content.map((c) => c.id).sort()).toEqual([...new Set(uploaded.map((u) => u.contentId))].sort());
  expect(content.find((c) => c.id === unicode)).toMatchObject({ current_version: 3, title: expect.stringContaining('Überweisung') });

  // Workflows with every version; the run's summary.
  const workflows = records(files, 'workflows');
  expect(workflows.map((w) => w.id).sort()).toEqual([twoVersions, runWorkflow].sort());
  const workflowVersions = records(files, 'workflow-versions').filter((v) => v.workflow_id === twoVersions);
  expect(workflowVersions.map((v) => v.version)).toEqual([1, 2]);
  expect(JSON.stringify(workflowVersions[1].definition)).toContain('"expression":"2"');
  const runs = records(files, 'runs');
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ id: run.id, workflow_id: runWorkflow, status: 'completed', nodes: { total: 1, byStatus: { completed: 1 } } });
  expect(runs[0].node_states.t).toMatchObject({ status: 'completed', attempts: expect.any(Number) });
  expect(runs[0].node_states.t.output).toBeUndefined();
  expect(runs[0].started_at).toBeTruthy();
  expect(runs[0].completed_at).toBeTruthy();

  // People, keys and the audit log.
  const members = records(files, 'members');
  expect(members.map((m) => m.email).sort()).toEqual([owner.email, (await api.deps.db('users').where({ id: admin.userId }).first()).email].sort());
  expect(records(files, 'invitations')).toEqual([expect.objectContaining({ email: invitee, role: 'viewer', status: 'pending' })]);
  expect(records(files, 'api-keys')).toEqual([expect.objectContaining({ id: apiKey.id, role: 'viewer' })]);
  expect(records(files, 'secrets')).toEqual([expect.objectContaining({ name: 'CRM_PASSWORD' })]);
  const audit = records(files, 'audit-log').map((a) => a.action);
  expect(audit).toEqual(expect.arrayContaining(['organization.created', 'settings.updated', 'organization.deletion_requested']));
  const organization = JSON.parse(files.get('organization.json')!.toString('utf8'));
  expect(organization).toMatchObject({ id, settings: { general: { timezone: 'Europe/Paris' } } });
  expect(organization.settings.integration.webhooks[0]).toMatchObject({ url: 'https://93.184.215.14/loom-hook', secret: '[masked]' });
  expect(records(files, 'objects').filter((o) => o.archivedAs === 'content-version')).toHaveLength(uploaded.length);

  // No secret in any byte of the archive: not the values, not their sealed forms, not the key or token hashes.
  for (const secret of [webhookSecret, webhookSecret.slice(6), ssoSecret, crmToken, orgSecret, apiKey.key, ...hashes, ...sealedValues]) {
    expect([secret.slice(0, 12), tar.includes(Buffer.from(secret))]).toEqual([secret.slice(0, 12), false]);
  }
  for (const hint of ['"enc":', 'key_hash', 'token_hash', 'value_enc', 'password_hash']) {
    expect([hint, tar.includes(Buffer.from(hint))]).toEqual([hint, false]);
  }

  // Order: the archive was complete (activity finished, object stored) before any step that removes something began.
  const history = await api.deps.temporal.workflow.getHandle(`org-delete-${id}`).fetchHistory();
  const scheduled = new Map<string, { name: string; index: number; time: number }>();
  let exportCompleted: { index: number; time: number } | null = null;
  history.events!.forEach((event, index) => {
    const time = Number(event.eventTime!.seconds) * 1000 + Math.floor((event.eventTime!.nanos ?? 0) / 1e6);
    const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (name) scheduled.set(String(event.eventId), { name, index, time });
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed && scheduled.get(String(completed.scheduledEventId))?.name === 'exportOrganizationArchive') exportCompleted = { index, time };
  });
  expect(exportCompleted).not.toBeNull();
  const removers = [...scheduled.values()].filter((s) =>
    ['cancelSubscriptions', 'runOrganizationCleaner', 'deleteOrganizationObjects', 'deleteOrganizationRecords'].includes(s.name),
  );
  expect(removers.length).toBe(3 + organizationCleaners.length);
  for (const r of removers) expect([r.name, r.index > exportCompleted!.index]).toEqual([r.name, true]);
  const stored = await api.deps.storage.statObject(api.config.minio.bucket, exportArchiveKey(id));
  const objectsRemovedAt = removers.find((r) => r.name === 'deleteOrganizationObjects')!.time;
  expect(stored.lastModified.getTime()).toBeLessThanOrEqual(objectsRemovedAt);
  expect(new Date(manifest.completedAt).getTime()).toBeLessThanOrEqual(objectsRemovedAt);

  // The confirmation mail carries the link, its end and the archive's checksum.
  const mail = await waitForMail(owner.email, /has been deleted/);
  expect(mail.text).toContain(url);
  expect(mail.text).toContain(progress.export.sha256);
  expect(mail.text).toContain(progress.export.expiresAt);
}, 300_000);

test('an export that cannot be written stops the deletion before anything is removed and gives the organization back', async () => {
  const { id, owner } = await createOrganization();
  const bytes = randomBytes(10_000);
  const upload = await uploadContent(api, owner.token, { bytes, filename: 'keep.bin' });
  expect(upload.status).toBe(201);
  await api.deps.db('organizations').where({ id }).update({ status: 'deleting', deletion_requested_at: new Date() });

  // A private worker whose export always fails (as when object storage refuses the archive).
  const queue = `${process.env.TEMPORAL_TASK_QUEUE}-export-fails`;
  const failingExport = jest.fn(async () => {
    throw ApplicationFailure.nonRetryable('object storage refused the archive', 'ExportFailed');
  });
  let worker: Worker | null = await createWorker({
    deps: api.deps,
    workflowBundlePath: process.env.TEMPORAL_WORKFLOW_BUNDLE,
    overrides: { taskQueue: queue, activities: { ...createActivities(api.deps), exportOrganizationArchive: failingExport } },
  });
  const running = worker.run();
  try {
    const result = await api.deps.temporal.workflow.execute('organizationDeletionWorkflow', {
      taskQueue: queue,
      workflowId: `org-delete-${id}`,
      args: [{ organizationId: id, requestedBy: owner.userId, requesterEmail: owner.email, organizationName: 'Kept', exportData: true, exportTtlSeconds: 60 }],
    });
    expect(result).toMatchObject({ step: 'aborted', stepsDone: ['mark-deleting', 'abort'], exportUrl: null });
    expect(failingExport).toHaveBeenCalledTimes(1);
  } finally {
    worker.shutdown();
    await running;
    worker = null;
  }

  // Nothing removed: the organization is active again, its content and bytes are there, the audit log says why.
  expect(await api.deps.db('organizations').where({ id }).first()).toMatchObject({ status: 'active', deletion_requested_at: null });
  const download = await api.request('GET', `/api/v1/content/${upload.body.id}`, { token: owner.token });
  expect(download.status).toBe(200);
  const body = (await api.deps.storage.getObject(api.config.minio.bucket, (await api.deps.db('content_versions').where({ content_id: upload.body.id }).first()).object_key)) as Readable;
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  expect(await api.deps.db('billing_subscriptions').where({ organization_id: id, status: 'active' }).first()).toBeDefined();
  const aborted = await api.deps.db('audit_logs').where({ organization_id: id, action: 'organization.deletion_aborted' }).first();
  expect(JSON.stringify(aborted.changes)).toContain('object storage refused the archive');
  const mail = await waitForMail(owner.email, /was not deleted/);
  expect(mail.text).toContain('object storage refused the archive');
  await expect(api.deps.storage.statObject(api.config.minio.bucket, exportArchiveKey(id))).rejects.toMatchObject({ code: 'NotFound' });
}, 120_000);

test('multipart upload: parts of 5 MiB, read back equal; an abandoned upload leaves no object', async () => {
  const bucket = api.config.minio.bucket;
  const key = `exports/test/${randomUUID()}.bin`;
  const data = randomBytes(MIN_PART_BYTES * 2 + 12345);
  const upload = await startMultipartUpload(api.deps.storage, bucket, key, { contentType: 'application/octet-stream', partBytes: MIN_PART_BYTES });
  for (let i = 0; i < data.length; i += 256 * 1024) {
    if (!upload.stream.write(data.subarray(i, i + 256 * 1024))) await new Promise((r) => upload.stream.once('drain', r));
  }
  upload.stream.end();
  await upload.done;
  const stream = (await api.deps.storage.getObject(bucket, key)) as Readable;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  expect(sha256(Buffer.concat(chunks))).toBe(sha256(data));
  const stat = await api.deps.storage.statObject(bucket, key);
  expect(stat.etag).toMatch(/-3$/); // three parts
  await api.deps.storage.removeObject(bucket, key);

  const abandoned = await startMultipartUpload(api.deps.storage, bucket, `${key}.abandoned`, { contentType: 'application/octet-stream' });
  abandoned.stream.on('error', () => undefined); // a pipeline listens in real use
  abandoned.stream.write(randomBytes(1000));
  abandoned.stream.destroy(new Error('writer failed'));
  await expect(abandoned.done).rejects.toThrow('writer failed');
  await expect(api.deps.storage.statObject(bucket, `${key}.abandoned`)).rejects.toMatchObject({ code: 'NotFound' });
});
