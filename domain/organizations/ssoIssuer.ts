import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { outboundGuards } from '../../lib/net/outbound';
import { SsrfRefusedError } from '../../lib/net/ssrfGuard';

/**
 * Checks an SSO issuer URL an update sets with the outbound policy sign-ins use (the `tools` guard,
 * domain/auth/sso.ts): an issuer the platform could never reach is refused when it is saved (422 naming
 * `integration.sso.oidc.issuer` and the operator setting that would allow it) instead of failing every sign-in.
 * Nothing is fetched. As for webhook URLs (webhookEndpoints.ts), a host that does not resolve (yet) is accepted, and
 * an unchanged issuer is not checked again.
 */
export async function vetSsoIssuer(config: Config, currentIssuer: string | null | undefined, issuer: string | undefined): Promise<void> {
  if (!issuer || issuer === currentIssuer) return;
  try {
    await outboundGuards(config).tools.vet(issuer);
  } catch (err) {
    if (!(err instanceof SsrfRefusedError)) return;
    throw new AppError('UNPROCESSABLE', `integration.sso.oidc.issuer ${issuer} can never be reached: ${err.message}`, [
      { path: 'body.integration.sso.oidc.issuer', problem: err.message },
    ]);
  }
}
