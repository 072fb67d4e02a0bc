import ipaddr from 'ipaddr.js';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { AppError, forbidden } from '../../lib/errors';
import type { Actor } from '../principals';
import { getMember, getOrganization } from './queries';
import type { StoredSettings } from './settingsModel';

type Conn = Db | Knex.Transaction;

/**
 * Step-up: the acts that weaken an organization's protections or vouch for something as a person are human acts
 * (docs/organizations.md#human-acts). This module is the one place that says who may do them; the settings,
 * API-key and approval services call it.
 *
 * - An API key never does them (403 HUMAN_REQUIRED): a key is a long-lived bearer secret that skips two-factor
 *   sign-in, the IP of a person and four-eyes rules, so one leaked key must not switch those off, mint keys as
 *   strong as itself, make a person of its choosing an admin (who could then do all of this), or approve the runs
 *   it started.
 * - A person does them from a session, and where the organization requires two-factor sign-in, only with it on
 *   (403 TWO_FACTOR_REQUIRED). The access check (api/organizations/access.ts) already refuses such a session on
 *   every org-scoped request; this reads it again in the act's own transaction, so the act never rests on a
 *   remembered access row or on a route that forgot it. Turning two-factor sign-in on ends the user's other
 *   sessions (domain/auth/twoFactor.ts), so "the user has it on" means this session passed it (or enrolled it).
 */

/** The human acts, as named in HUMAN_REQUIRED messages and the docs. */
export type HumanAct = 'weaken the security settings' | 'create an admin API key' | 'grant the admin role' | 'approve or reject runs';

/** `detail` names what the act touches (settings paths, the key's role) in the refusal. */
export async function requireHuman(conn: Conn, organizationId: string, actor: Actor, act: HumanAct, detail?: string): Promise<void> {
  const what = detail ? `${act} (${detail})` : act;
  if (actor.type !== 'user') {
    throw new AppError('HUMAN_REQUIRED', `API keys may not ${what}: a person must do it from a signed-in session`);
  }
  const [organization, member] = await Promise.all([getOrganization(conn, organizationId), getMember(conn, organizationId, actor.id)]);
  if (!organization || !member) throw forbidden('not a member of this organization');
  const requireTwoFactor = (organization.settings as Partial<StoredSettings> | null)?.security?.requireTwoFactor === true;
  if (requireTwoFactor && !member.two_factor_enabled) {
    throw new AppError('TWO_FACTOR_REQUIRED', `this organization requires two-factor sign-in to ${what}; enrol with POST /api/auth/2fa/enrolment`);
  }
}

/**
 * The step-up rules of a settings update, in its transaction (`before`: the stored settings it locked): a change
 * that lowers a protection is a human act; and a person may not turn on a two-factor requirement they do not meet
 * themselves (422, as an IP allowlist without the caller's address is), since their next request would be refused.
 * An API key may turn it on: keys are not subject to it, and members without it are who it is meant to stop.
 */
export async function checkSettingsChange(conn: Conn, organizationId: string, actor: Actor, before: StoredSettings, after: StoredSettings): Promise<void> {
  const weakened = weakenedSettings(before, after);
  if (weakened.length) await requireHuman(conn, organizationId, actor, 'weaken the security settings', weakened.join(', '));
  if (actor.type === 'user' && !before.security.requireTwoFactor && after.security.requireTwoFactor) {
    const member = await getMember(conn, organizationId, actor.id);
    if (!member?.two_factor_enabled) {
      throw new AppError('UNPROCESSABLE', 'requiring two-factor sign-in would lock you out: enrol first (POST /api/auth/2fa/enrolment), then require it', [
        { path: 'body.security.requireTwoFactor', problem: 'you have no two-factor sign-in; enrol first' },
      ]);
    }
  }
}

/**
 * The settings paths whose change from `before` to `after` lowers a protection (empty: none does):
 * - `security.requireTwoFactor` turned off;
 * - `security.ipAllowlist` admitting an address it did not (emptied, or a block not inside a listed one);
 * - `security.sessionTimeoutMinutes` lengthened or removed (the platform's idle timeout is longer);
 * - `integration.sso` enabled or re-pointed (issuer, client, provisioning, roles, domains, SAML): who may sign in
 *   is decided by that provider, so a key could otherwise make itself a person. Turning SSO off or removing it
 *   closes a way in, and a client secret changed alone admits nobody new: neither is a human act.
 * Loom has no "enforce SSO" setting (password sign-in stays open beside SSO), so there is none to guard.
 */
export function weakenedSettings(before: StoredSettings, after: StoredSettings): string[] {
  const paths: string[] = [];
  if (before.security.requireTwoFactor && !after.security.requireTwoFactor) paths.push('security.requireTwoFactor');
  if (allowlistLoosened(before.security.ipAllowlist, after.security.ipAllowlist)) paths.push('security.ipAllowlist');
  const [was, now] = [before.security.sessionTimeoutMinutes, after.security.sessionTimeoutMinutes];
  if (was !== null && (now === null || now > was)) paths.push('security.sessionTimeoutMinutes');
  if (ssoOpened(before.integration.sso, after.integration.sso)) paths.push('integration.sso');
  return paths;
}

function allowlistLoosened(before: string[], after: string[]): boolean {
  if (before.length === 0) return false; // everyone was already admitted
  if (after.length === 0) return true;
  return after.some((block) => !before.some((outer) => cidrWithin(block, outer)));
}

/** Whether every address of `inner` is in `outer` (same family, outer's prefix no longer, inner's network inside). */
function cidrWithin(inner: string, outer: string): boolean {
  try {
    const [innerAddr, innerBits] = ipaddr.parseCIDR(inner);
    const [outerAddr, outerBits] = ipaddr.parseCIDR(outer);
    if (innerAddr.kind() !== outerAddr.kind() || outerBits > innerBits) return false;
    return innerAddr.match([outerAddr, outerBits] as [typeof innerAddr, number]);
  } catch {
    return false; // a block that does not parse is never proven inside
  }
}

type Sso = StoredSettings['integration']['sso'];

function ssoOpened(before: Sso, after: Sso): boolean {
  if (!after?.enabled) return false;
  if (!before?.enabled) return true;
  // Compared field by field with the defaults applied, so a document stored before a field existed is not a change.
  const signInPart = (s: NonNullable<Sso>): string =>
    JSON.stringify([
      s.protocol,
      s.oidc?.issuer ?? null,
      s.oidc?.clientId ?? null,
      [...(s.oidc?.allowedEmailDomains ?? [])].sort(),
      s.oidc?.defaultRole ?? 'member',
      s.oidc?.jitProvisioning ?? false,
      s.saml ?? null,
    ]);
  return signInPart(before) !== signInPart(after);
}
