import type { Knex } from 'knex';
import type { Db } from '../../db/knex';

/** SQL of SSO sign-in (db/migrations/1021_sso_login_states.ts): the only writer of `sso_login_states`. */

type Conn = Db | Knex.Transaction;

export interface SsoStateRow {
  id: string;
  organization_id: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
}

export async function insertSsoState(
  db: Conn,
  input: { stateHash: string; organizationId: string; nonce: string; codeVerifier: string; redirectUri: string; expiresAt: Date },
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
  });
}

/** Spends a live state: the first callback that presents it gets the row, any later one undefined. */
export async function consumeSsoState(db: Conn, stateHash: string): Promise<SsoStateRow | undefined> {
  const [row] = await db('sso_login_states')
    .where({ state_hash: stateHash })
    .whereNull('used_at')
    .andWhere('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['id', 'organization_id', 'nonce', 'code_verifier', 'redirect_uri']);
  return row as SsoStateRow | undefined;
}

export interface SsoOrganizationRow {
  id: string;
  slug: string;
  status: string;
  settings: unknown;
}

export async function findOrganizationForSso(db: Conn, by: { slug: string } | { id: string }): Promise<SsoOrganizationRow | undefined> {
  return db('organizations').where(by).first('id', 'slug', 'status', 'settings');
}

export async function findMembershipRole(db: Conn, organizationId: string, userId: string): Promise<string | undefined> {
  const row: { role: string } | undefined = await db('memberships').where({ organization_id: organizationId, user_id: userId }).first('role');
  return row?.role;
}
