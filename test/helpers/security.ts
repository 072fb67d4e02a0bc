import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Knex } from 'knex';
import type { RouteDef } from '../../api/http/route';
import { uploadContent, waitForProcessing } from './content';
import { createTestApiKey } from './organizations';
import { createWorkflowFixture, startRun, toolNode, waitForRun } from './runs';
import type { TestApi } from './stack';
import { addTestMember, type TestTenant, type TestUser } from './tenants';

/**
 * Helpers for the security matrices (test/integration/security/): a victim organization holding one real resource
 * of every kind, a path filler that puts those ids into any route of the OpenAPI document, and a snapshot of every
 * row an organization owns, to prove an attacker's requests changed nothing.
 */

export interface VictimResources {
  workflowId: string;
  runId: string;
  contentId: string;
  member: TestUser;
  invitationId: string;
  apiKeyId: string;
  /** name of a secret in the organization's secrets store */
  secretName: string;
  /** an e-mail domain registered (pending) for single sign-on */
  domainId: string;
  /** a pending approval of a run waiting in an approval node */
  approvalId: string;
  /** a finished on-demand export, a failed import and a finished re-embedding (rows only: their work is not the point) */
  exportId: string;
  importId: string;
  reembeddingId: string;
}

export async function createVictimResources(api: TestApi, tenant: TestTenant): Promise<VictimResources> {
  const token = tenant.owner.token;
  const workflowId = await createWorkflowFixture(api, tenant, {
    name: 'victim workflow',
    status: 'active',
    nodes: [toolNode('only', 'json_transform', { expression: '1', data: null })],
  });
  const run = await startRun(api, token, workflowId);
  await waitForRun(api, token, workflowId, run.id);
  const upload = await uploadContent(api, token, { bytes: Buffer.from('victim secret text'), filename: 'v.txt', type: 'text/plain' });
  if (upload.status !== 201) throw new Error(`upload failed: ${upload.status} ${upload.text}`);
  // The processing job writes to the content rows: wait for it, so snapshots compare a quiet organization.
  await waitForProcessing(api, token, upload.body.id);
  const member = await addTestMember(api, tenant, 'member');
  const invite = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/invitations`, {
    token,
    body: { email: `invitee-${randomUUID()}@example.com`, role: 'member' },
  });
  if (invite.status !== 201) throw new Error(`invitation failed: ${invite.status} ${invite.text}`);
  const key = await createTestApiKey(api, tenant.organizationId, token, 'member');
  const secretName = 'VICTIM_SECRET';
  const secret = await api.request('PUT', `/api/v1/secrets/${secretName}`, { token, body: { value: `victim-${randomUUID()}` } });
  if (secret.status !== 201) throw new Error(`secret failed: ${secret.status} ${secret.text}`);
  const domain = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/domains`, {
    token,
    body: { domain: `victim-${randomUUID().slice(0, 8)}.example` },
  });
  if (domain.status !== 201) throw new Error(`domain failed: ${domain.status} ${domain.text}`);
  const approvalId = await waitingApproval(api, tenant);
  const organization_id = tenant.organizationId;
  const [exported] = await api.deps
    .db('organization_exports')
    .insert({ organization_id, status: 'succeeded', object_key: `exports/organizations/${organization_id}/on-demand/x.tar.gz`, expires_at: new Date(Date.now() + 3600_000) })
    .returning('id');
  const [imported] = await api.deps
    .db('organization_imports')
    .insert({ organization_id, status: 'failed', object_key: `imports/organizations/${organization_id}/x.tar.gz`, error: 'not a valid organization export' })
    .returning('id');
  const [reembedding] = await api.deps
    .db('content_reembeddings')
    .insert({ organization_id, target_model: 'wink-sg-100d-sif-v1', target_dimensions: 100, status: 'succeeded', total: 0, workflow_id: 'content-reembed-victim' })
    .returning('id');
  return {
    workflowId,
    runId: run.id,
    contentId: upload.body.id,
    member,
    invitationId: invite.body.id,
    apiKeyId: key.id,
    secretName,
    domainId: domain.body.id,
    approvalId,
    exportId: exported.id,
    importId: imported.id,
    reembeddingId: reembedding.id,
  };
}

/**
 * A run of the victim waiting in an approval node (admins decide: nobody is mailed, the owner started it), once its
 * approval.requested event was dispatched, so that nothing of it changes during a snapshot.
 */
async function waitingApproval(api: TestApi, tenant: TestTenant): Promise<string> {
  const workflowId = await createWorkflowFixture(api, tenant, {
    name: 'victim approval',
    status: 'active',
    nodes: [{ id: 'gate', type: 'approval', config: { approvers: { role: 'admin' }, timeout: '1d' } }],
  });
  const run = await startRun(api, tenant.owner.token, workflowId);
  const waiting = await waitForRun(api, tenant.owner.token, workflowId, run.id, (r) => Boolean(r.node_states?.gate?.approval_id), 30_000);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const open = await api.deps.db('outbox_events').where({ organization_id: tenant.organizationId }).whereNull('dispatched_at').first('id');
    if (!open) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return waiting.node_states.gate.approval_id as string;
}

/** Values for each path parameter name of the document, taken from `victim` (random UUIDs where no fixture exists). */
export function victimPathValues(tenant: TestTenant, victim: VictimResources, route: RouteDef): Record<string, string> {
  const isOrgPath = route.path.startsWith('/api/v1/organizations/{id}');
  const isContent = route.path.startsWith('/api/v1/content');
  const isSession = route.path.startsWith('/api/auth/sessions');
  return {
    id: isOrgPath
      ? tenant.organizationId
      : route.path.startsWith('/api/v1/content/reembeddings')
        ? victim.reembeddingId
        : isContent
        ? victim.contentId
        : isSession
          ? tenant.owner.sessionId
          : route.path.startsWith('/api/v1/dead-letters')
            ? randomUUID()
            : route.path.startsWith('/api/v1/approvals')
              ? victim.approvalId
              : victim.workflowId,
    run_id: victim.runId,
    userID: victim.member.userId,
    invitationId: victim.invitationId,
    keyId: victim.apiKeyId,
    domainId: victim.domainId,
    exportId: victim.exportId,
    importId: victim.importId,
    name: victim.secretName,
    version: '1',
    key: 'webhook',
    endpoint_id: randomUUID(),
    delivery_id: randomUUID(),
    event_id: randomUUID(),
    tool: 'http_request',
    organization: tenant.organizationId,
    slug: tenant.organizationId,
    path: 'hook',
    file: 'x.js',
  };
}

export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} in ${path}`);
    return encodeURIComponent(value);
  });
}

/** Every row of every table with an organization_id column, for `organizationId`, as comparable JSON. */
export async function snapshotOrganization(db: Knex, organizationId: string, skipTables: string[] = []): Promise<Record<string, string>> {
  const tables = await db('information_schema.columns')
    .where({ table_schema: 'public', column_name: 'organization_id' })
    .select<{ table_name: string }[]>('table_name');
  const out: Record<string, string> = {};
  const orgRow = await db('organizations').where({ id: organizationId }).first();
  out.organizations = JSON.stringify(orgRow);
  for (const { table_name } of tables.sort((a, b) => a.table_name.localeCompare(b.table_name))) {
    if (skipTables.includes(table_name)) continue;
    const rows = await db(table_name).where({ organization_id: organizationId }).select();
    out[table_name] = JSON.stringify(rows.map((r: Record<string, unknown>) => JSON.stringify(r)).sort());
  }
  return out;
}

/** A minimal JSON body for a route: an empty object when it takes a body, nothing otherwise. */
export function minimalBody(route: RouteDef): unknown {
  return route.body ? {} : undefined;
}

export function isEnvelope(body: unknown): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' && typeof error?.message === 'string';
}

export interface StreamOutcome {
  status?: number;
  body?: string;
  error?: string;
  /** Bytes of `chunk` written before the server answered or closed (head and tail not counted). */
  sentBytes: number;
}

/**
 * POSTs `head`, then `chunk` repeatedly until `total` bytes, then `tail`, to `url`, honouring back-pressure and
 * stopping as soon as the server answers or closes: how a test proves a limit is enforced while the body streams.
 */
export function streamPost(
  url: string,
  options: { headers: Record<string, string>; total: number; chunk: Buffer; head?: string; tail?: string },
): Promise<StreamOutcome> {
  const target = new URL(url);
  return new Promise((resolve) => {
    let sentBytes = 0;
    let settled = false;
    const done = (outcome: Omit<StreamOutcome, 'sentBytes'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, sentBytes });
    };
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'POST', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => done({ status: res.statusCode, error: err.message }));
      },
    );
    req.on('error', (err) => done({ error: err.message }));
    if (options.head) req.write(options.head);
    const pump = (): void => {
      while (!settled && sentBytes < options.total && !req.destroyed) {
        sentBytes += options.chunk.length;
        if (!req.write(options.chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (sentBytes >= options.total && !req.destroyed && !settled) req.end(options.tail);
    };
    pump();
  });
}
