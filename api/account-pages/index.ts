import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { previewInvitation } from '../../domain/organizations/invitationLookup';
import { accountPageRoutes } from './routes';

/**
 * The pages e-mailed links open (accept an invitation, confirm an e-mail address, reset a password) when no client
 * app is configured with SERVICE_APP_URL. They only call public API routes; see docs/auth.md#links-in-e-mails.
 */
export function createAccountPagesDomain(deps: AppDeps): Domain {
  return { routes: accountPageRoutes(deps.config, { previewInvitation: (token) => previewInvitation(deps.db, token) }) };
}
