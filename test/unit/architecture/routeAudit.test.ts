import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../../../api/app';
import { isAuditedRoute, ROUTE_AUDIT, unauditedRoutes } from '../../../api/http/routeAudit';
import { closeDeps, createDeps } from '../../../domain/runtime';
import { loadConfig } from '../../../lib/config';

/**
 * Every organization route that changes something is audited (api/http/routeAudit.ts). This test lists the ones
 * that are not: a route missing from the table, a `service` action that no module of domain/ or activities/
 * writes, or a table entry for a route that no longer exists. The app itself refuses to mount a changing
 * organization route without an entry (api/http/mount.ts); this answers with the whole list at once.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');

function routes() {
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SERVICE_JWT_SECRET: 'route-audit-test-placeholder-secret-0123456789',
    SERVICE_ENCRYPTION_KEY: 'route-audit-test-placeholder-key-0123456789ab',
  });
  const deps = createDeps(config);
  try {
    return createApp(deps).routes.map(({ method, auth, operationId }) => ({ method, auth, operationId }));
  } finally {
    void closeDeps(deps);
  }
}

function sources(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) text += sources(full);
    else if (name.endsWith('.ts')) text += readFileSync(full, 'utf8');
  }
  return text;
}

describe('audit coverage of the organization routes that change something', () => {
  const all = routes();

  test('every one is in the audit table (this lists the writes that are not audited)', () => {
    expect(unauditedRoutes(all)).toEqual([]);
    expect(all.filter(isAuditedRoute).length).toBeGreaterThan(40);
  });

  test('every action a `service` entry promises is written by a module of domain/ or activities/', () => {
    const code = sources(path.join(ROOT, 'domain')) + sources(path.join(ROOT, 'activities'));
    const missing = Object.entries(ROUTE_AUDIT).flatMap(([operationId, policy]) =>
      'by' in policy && policy.by === 'service' ? policy.actions.filter((a) => !code.includes(`'${a}'`)).map((a) => `${operationId}: ${a}`) : [],
    );
    expect(missing).toEqual([]);
  });

  test('the table names only routes that exist and change something', () => {
    const changing = new Set(all.filter(isAuditedRoute).map((r) => r.operationId));
    expect(Object.keys(ROUTE_AUDIT).filter((id) => !changing.has(id))).toEqual([]);
  });

  test('the helper reports a route that was forgotten', () => {
    expect(unauditedRoutes([...all, { method: 'post', auth: 'org', operationId: 'brandNewWrite' }])).toEqual(['brandNewWrite']);
    expect(unauditedRoutes([{ method: 'get', auth: 'org', operationId: 'aRead' }, { method: 'post', auth: 'user', operationId: 'anAccountWrite' }])).toEqual([]);
  });
});
