import { forbidden, notFound } from '../../lib/errors';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import type { Knex } from 'knex';
import { ROLE_RANK, ROLES, type Role } from '../../lib/permissions';
import { recordAudit } from '../audit/record';
import type { Actor, OrganizationContext } from '../principals';
import { generateApiKey } from './apiKeyFormat';
import {
  getApiKey,
  getApiKeyCreator,
  getMember,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  revokeApiKeysOfCreator,
  type ApiKeyRow,
} from './queries';
import type { OrgServiceDeps } from './serviceDeps';
import { requireHuman } from './stepUp';

/**
 * Organization API keys. A key acts with its own role (admin, member or viewer; never owner: deleting the
 * organization and transferring ownership need a person), and a caller cannot mint a key above its own role.
 * The key is returned once, at creation; only its SHA-256 is stored.
 *
 * A key never outlives the standing of the person who created it (docs/organizations.md#api-keys): it is
 * attributed to that person (a key minted by a key to the parent key's creator), and when the person leaves or is
 * removed all of their keys are revoked, when demoted those above the new role, when the account is deleted all of
 * them (a database trigger, migration 0901). Revoked, not capped: a key's role is what its holders were told it can
 * do, and a silently narrowed key fails later in ways nobody connects to the demotion.
 */
export type ApiKeyRole = Exclude<Role, 'owner'>;

export type CreatorKeysReason = 'creator_removed' | 'creator_left' | 'creator_demoted';

/**
 * Revokes the keys `userId` created in the organization that `newRole` may not hold (all of them when it is null:
 * no longer a member), one `api_key.revoked` entry each with the reason. Call it in the transaction that changes
 * the membership, so the keys and the membership change together.
 */
export async function revokeKeysOfCreator(
  trx: Knex.Transaction,
  input: { organizationId: string; userId: string; newRole: Role | null; reason: CreatorKeysReason; actor: Actor },
): Promise<number> {
  const { newRole } = input;
  const roles = newRole === null ? null : ROLES.filter((r) => ROLE_RANK[r] > ROLE_RANK[newRole]);
  if (roles?.length === 0) return 0;
  const revoked = await revokeApiKeysOfCreator(trx, input.organizationId, input.userId, roles);
  for (const key of revoked) {
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actor: input.actor,
      action: 'api_key.revoked',
      target: { type: 'api_key', id: key.id },
      before: { name: key.name, role: key.role, prefix: key.prefix },
      after: { reason: input.reason, creator: input.userId, ...(newRole ? { creatorRole: newRole } : {}) },
    });
  }
  return revoked.length;
}

export function createApiKeysService(d: OrgServiceDeps) {
  const { db } = d;

  async function create(
    org: OrganizationContext,
    actor: Actor,
    createdBy: string | null,
    input: { name: string; role: ApiKeyRole; expiresAt: Date | null },
  ): Promise<{ row: ApiKeyRow; key: string }> {
    if (ROLE_RANK[input.role] > ROLE_RANK[org.role]) throw forbidden(`a ${org.role} may not create a key with role ${input.role}`);
    // A key that may manage keys, members and settings is only ever minted by a person (domain/organizations/stepUp.ts).
    if (ROLE_RANK[input.role] >= ROLE_RANK.admin) await requireHuman(db, org.organizationId, actor, 'create an admin API key');
    const { key, prefix, hash } = generateApiKey();
    const row = await db.transaction(async (trx) => {
      // A key minted by a key answers to the person behind the parent key, so it goes when that person goes.
      const accountable = actor.type === 'apiKey' ? await getApiKeyCreator(trx, org.organizationId, actor.id) : createdBy;
      if (accountable) {
        // Locks the membership against a concurrent removal or demotion, which would otherwise miss this key.
        const creator = await getMember(trx, org.organizationId, accountable, true);
        if (!creator || ROLE_RANK[creator.role] < ROLE_RANK[input.role]) {
          throw forbidden(`the key's creator may not hold a key with role ${input.role}`);
        }
      }
      const inserted = await insertApiKey(trx, { organizationId: org.organizationId, name: input.name, role: input.role, prefix, keyHash: hash, createdBy: accountable, expiresAt: input.expiresAt });
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
    const after = decodeCursorOrThrow(cursor);
    return toPage(await listApiKeys(db, organizationId, limit, after), limit, (r) => ({ sort: r.sort_key, id: r.id }));
  }

  async function revoke(org: OrganizationContext, actor: Actor, id: string): Promise<void> {
    const key = await getApiKey(db, org.organizationId, id);
    if (!key) throw notFound('API key');
    if (ROLE_RANK[key.role] > ROLE_RANK[org.role]) throw forbidden(`a ${org.role} may not revoke a key with role ${key.role}`);
    await db.transaction(async (trx) => {
      await revokeApiKey(trx, org.organizationId, id);
      await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'api_key.revoked', target: { type: 'api_key', id }, before: { name: key.name, role: key.role, prefix: key.prefix }, after: { reason: 'revoked' } });
    });
  }

  return { create, list, revoke };
}
