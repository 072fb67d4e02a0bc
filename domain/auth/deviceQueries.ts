import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { queryNamed } from '../../db/namedStatement';

type Conn = Db | Knex.Transaction;

/** Devices remembered per user; the oldest beyond this are forgotten (a sign-in from one of them is new again). */
export const MAX_DEVICES_PER_USER = 50;

/**
 * Records a sign-in from `fingerprint` (the only writer of user_sign_in_devices). `isNew`: the device was not known;
 * `firstDevice`: the user had no device recorded before (their first sign-in since devices are remembered).
 */
export async function recordSignInDevice(
  trx: Conn,
  input: { userId: string; fingerprint: string; userAgent: string | null; network: string | null },
): Promise<{ isNew: boolean; firstDevice: boolean }> {
  // One statement, named (db/namedStatement.ts), on every sign-in: the count is of the devices known before it.
  const [row] = await queryNamed<{ known: string; inserted: boolean }>(trx, 'sign_in_device_record', RECORD_DEVICE, [
    input.userId,
    input.fingerprint,
    input.userAgent?.slice(0, 300) ?? null,
    input.network,
  ]);
  const known = Number(row?.known ?? 0);
  const isNew = row?.inserted === true;
  if (isNew && known + 1 > MAX_DEVICES_PER_USER) {
    await trx('user_sign_in_devices')
      .where({ user_id: input.userId })
      .whereIn(
        'fingerprint',
        trx('user_sign_in_devices').where({ user_id: input.userId }).orderBy('last_seen_at', 'asc').limit(known + 1 - MAX_DEVICES_PER_USER).select('fingerprint'),
      )
      .delete();
  }
  return { isNew, firstDevice: known === 0 };
}

const RECORD_DEVICE = `
  WITH known AS (SELECT count(*) AS n FROM user_sign_in_devices WHERE user_id = $1),
       seen AS (
         INSERT INTO user_sign_in_devices (user_id, fingerprint, user_agent, network) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, fingerprint) DO UPDATE SET last_seen_at = CURRENT_TIMESTAMP
         RETURNING (xmax = 0) AS inserted
       )
  SELECT known.n AS known, seen.inserted FROM known, seen`;

/** The organizations a user belongs to (their sign-ins appear in each one's audit log), at most `limit`. */
export async function membershipOrganizations(trx: Conn, userId: string, limit: number): Promise<string[]> {
  // Named (db/namedStatement.ts): every sign-in asks.
  const rows = await queryNamed<{ organization_id: string }>(trx, 'membership_organizations', MEMBERSHIP_ORGANIZATIONS, [userId, limit]);
  return rows.map((r) => r.organization_id);
}

const MEMBERSHIP_ORGANIZATIONS = 'SELECT organization_id FROM memberships WHERE user_id = $1 ORDER BY created_at LIMIT $2';
