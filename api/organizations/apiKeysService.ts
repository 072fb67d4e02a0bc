import { forbidden, notFound } from '../../lib/errors';
import { decodeCursor, toPage, type Page } from '../../lib/pagination';
import { ROLE_RANK, type Role } from '../../lib/permissions';
import { recordAudit } from '../audit/record';
import type { Actor, OrganizationContext } from '../http/route';
import { generateApiKey } from './apiKeyFormat';
import { getApiKey, insertApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from './queries';
import type { OrgServiceDeps } from './serviceDeps';
import { invalidCursor } from './util';

/**
 * Organization API keys. A key acts with its own role (admin, member or viewer; never owner: deleting the
 * organization and transferring ownership need a person), and a caller cannot mint a key above its own role.
 * The key is returned once, at creation; only its SHA-256 is stored. Keys belong to the organization and outlive
 * the membership of whoever created them.
 */
export type ApiKeyRole = Exclude<Role, 'owner'>;

export function createApiKeysService(d: OrgServiceDeps) {
  const { db } = d;

  async function create(
    org: OrganizationContext,
    actor: Actor,
    createdBy: string | null,
    input: { name: string; role: ApiKeyRole; expiresAt: Date | null },
  ): Promise<{ row: ApiKeyRow; key: string }> {
    if (ROLE_RANK[input.role] > ROLE_RANK[org.role]) throw forbidden(`a ${org.role} may not create a key with role ${input.role}`);
    const { key, prefix, hash } = generateApiKey();
    const row = await db.transaction(async (trx) => {
      const inserted = await insertApiKey(trx, { organizationId: org.organizationId, name: input.name, role: input.role, prefix, keyHash: hash, createdBy, expiresAt: input.expiresAt });
      await recordAudit(trx, {
        organizationId: org.organizationId,
        actor,
        action: 'api_key.created',
        target: { type: 'api_key', id: inserted.id },
        after: { name: input.name, role: input.role, prefix, expiresAt: input.expiresAt?.toISOString() ?? null },
      });
      return inserted;
    });
    return { row, key };
  }

  async function list(organizationId: string, limit: number, cursor?: string): Promise<Page<ApiKeyRow & { sort_key: string }>> {
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw invalidCursor();
    return toPage(await listApiKeys(db, organizationId, limit, after), limit, (r) => ({ sort: r.sort_key, id: r.id }));
  }

  async function revoke(org: OrganizationContext, actor: Actor, id: string): Promise<void> {
    const key = await getApiKey(db, org.organizationId, id);
    if (!key) throw notFound('API key');
    if (ROLE_RANK[key.role] > ROLE_RANK[org.role]) throw forbidden(`a ${org.role} may not revoke a key with role ${key.role}`);
    await db.transaction(async (trx) => {
      await revokeApiKey(trx, org.organizationId, id);
      await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'api_key.revoked', target: { type: 'api_key', id }, before: { name: key.name, role: key.role, prefix: key.prefix } });
    });
  }

  return { create, list, revoke };
}
