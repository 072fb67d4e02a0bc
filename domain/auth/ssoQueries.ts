import type { Knex } from 'knex';
import type { Db } from '../../db/knex';

/**
 * SQL of SSO sign-in (db/migrations/1021_sso_login_states.ts, 1130_sso_identities.ts): the only writer of
 * `sso_login_states` and of `accounts` (external identities linked to users).
 */

type Conn = Db | Knex.Transaction;

export interface SsoStateRow {
  id: string;
  organization_id: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  /** Set when the flow links the identity to this signed-in user instead of signing in. */
  link_user_id: string | null;
  /** `console`: the web console started the sign-in and gets the browser back (migration 1271). */
  client: SsoClient | null;
}

export type SsoClient = 'console';

export async function insertSsoState(
  db: Conn,
  input: {
    stateHash: string;
    organizationId: string;
    nonce: string;
    codeVerifier: string;
    redirectUri: string;
    expiresAt: Date;
    linkUserId: string | null;
    client: SsoClient | null;
  },
): Promise<void> {
  // Expired rows go on the way, so the table stays small.
  await db('sso_login_states').where('expires_at', '<=', db.fn.now()).delete();
  await db('sso_login_states').insert({
    state_hash: input.stateHash,
    organization_id: input.organizationId,
    nonce: input.nonce,
    code_verifier: input.codeVerifier,
    redirect_uri: input.redirectUri,
    expires_at: input.expiresAt,
    link_user_id: input.linkUserId,
    client: input.client,
  });
}

/** Spends a live state: the first callback that presents it gets the row, any later one undefined. */
export async function consumeSsoState(db: Conn, stateHash: string): Promise<SsoStateRow | undefined> {
  const [row] = await db('sso_login_states')
    .where({ state_hash: stateHash })
    .whereNull('used_at')
    .andWhere('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['id', 'organization_id', 'nonce', 'code_verifier', 'redirect_uri', 'link_user_id', 'client']);
  return row as SsoStateRow | undefined;
}

export async function findMembershipRole(db: Conn, organizationId: string, userId: string): Promise<string | undefined> {
  const row: { role: string } | undefined = await db('memberships').where({ organization_id: organizationId, user_id: userId }).first('role');
  return row?.role;
}

// ------------------------------------------------------------------------------------------ identities

/** Unique (provider, provider_account_id) of the spec's `accounts` table (migration 0001). */
export const IDENTITY_UNIQUE = 'accounts_provider_provider_account_id_unique';

/** The user an external identity is linked to. */
export async function findLinkedUserId(db: Conn, provider: string, subject: string): Promise<string | undefined> {
  const row: { user_id: string } | undefined = await db('accounts').where({ provider, provider_account_id: subject }).first('user_id');
  return row?.user_id;
}

/** The identity a user has linked at a provider, if any. */
export async function findIdentityOfUser(db: Conn, provider: string, userId: string): Promise<string | undefined> {
  const row: { provider_account_id: string } | undefined = await db('accounts').where({ provider, user_id: userId }).first('provider_account_id');
  return row?.provider_account_id;
}

/** Links an identity; a unique violation (IDENTITY_UNIQUE) when it is linked already. */
export async function insertIdentity(db: Conn, input: { userId: string; provider: string; subject: string; issuer: string }): Promise<void> {
  await db('accounts').insert({ user_id: input.userId, provider: input.provider, provider_account_id: input.subject, issuer: input.issuer });
}

export interface IdentityRow {
  id: string;
  issuer: string | null;
  provider_account_id: string;
  created_at: Date;
}

/** The external identities linked to a user, oldest first. */
export async function listIdentitiesOfUser(db: Conn, userId: string): Promise<IdentityRow[]> {
  return db('accounts').where({ user_id: userId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('id', 'issuer', 'provider_account_id', 'created_at');
}

/**
 * Unlinks one identity of the user unless it is the account's last way in (no password, no other identity): the
 * user row is locked first, so two unlinks at once cannot both pass the check. `gone`: no such identity of the user.
 */
export async function unlinkIdentityOfUser(
  trx: Knex.Transaction,
  userId: string,
  id: string,
): Promise<{ outcome: 'unlinked'; identity: IdentityRow } | { outcome: 'gone' | 'last' }> {
  const user: { password_hash: string | null } | undefined = await trx('users').where({ id: userId }).forUpdate().first('password_hash');
  if (!user) return { outcome: 'gone' };
  const identities = await listIdentitiesOfUser(trx, userId);
  const identity = identities.find((row) => row.id === id);
  if (!identity) return { outcome: 'gone' };
  if (!user.password_hash && identities.length === 1) return { outcome: 'last' };
  await trx('accounts').where({ user_id: userId, id }).delete();
  return { outcome: 'unlinked', identity };
}
