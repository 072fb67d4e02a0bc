import type { Knex } from 'knex';
import type { Db } from '../../db/knex';

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
  const known = Number(((await trx('user_sign_in_devices').where({ user_id: input.userId }).count({ n: '*' }).first()) as { n: string | number } | undefined)?.n ?? 0);
  const [row] = (await trx('user_sign_in_devices')
    .insert({ user_id: input.userId, fingerprint: input.fingerprint, user_agent: input.userAgent?.slice(0, 300) ?? null, network: input.network })
    .onConflict(['user_id', 'fingerprint'])
    .merge({ last_seen_at: trx.fn.now() })
    .returning(trx.raw('(xmax = 0) AS inserted'))) as { inserted: boolean }[];
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

/** The organizations a user belongs to (their sign-ins appear in each one's audit log), at most `limit`. */
export async function membershipOrganizations(trx: Conn, userId: string, limit: number): Promise<string[]> {
  return trx('memberships').where({ user_id: userId }).orderBy('created_at').limit(limit).pluck('organization_id');
}
