import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { queryNamed } from '../../db/namedStatement';

type Conn = Db | Knex.Transaction;

/** Devices remembered per user; the oldest beyond this are forgotten (a sign-in from one of them is new again). */
export const MAX_DEVICES_PER_USER = 50;

/**
 * Records a sign-in from `fingerprint` (the only writer of user_sign_in_devices). `isNew`: the device was not known;
 * `firstDevice`: the user had no device recorded before (their first sign-in since devices are remembered).
 * With `organizationsUpTo`, the same round trip also answers `organizations`: the organizations the user belongs to
 * (their sign-ins appear in each one's audit log), oldest membership first, at most that many.
 */
export async function recordSignInDevice(
  trx: Conn,
  input: { userId: string; fingerprint: string; userAgent: string | null; network: string | null },
  organizationsUpTo = 0,
): Promise<{ isNew: boolean; firstDevice: boolean; organizations: string[] }> {
  // One statement, named (db/namedStatement.ts), on every sign-in: the count is of the devices known before it.
  const [row] = await queryNamed<{ known: string; inserted: boolean; organizations: string[] }>(trx, 'sign_in_device_record', RECORD_DEVICE, [
    input.userId,
    input.fingerprint,
    input.userAgent?.slice(0, 300) ?? null,
    input.network,
    organizationsUpTo,
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
  return { isNew, firstDevice: known === 0, organizations: row?.organizations ?? [] };
}

const RECORD_DEVICE = `
  WITH known AS (SELECT count(*) AS n FROM user_sign_in_devices WHERE user_id = $1),
       seen AS (
         INSERT INTO user_sign_in_devices (user_id, fingerprint, user_agent, network) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, fingerprint) DO UPDATE SET last_seen_at = CURRENT_TIMESTAMP
         RETURNING (xmax = 0) AS inserted
       )
  SELECT known.n AS known, seen.inserted,
         ARRAY(SELECT organization_id::text FROM memberships WHERE user_id = $1 ORDER BY created_at LIMIT $5::int) AS organizations
    FROM known, seen`;
