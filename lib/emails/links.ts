/**
 * The links the platform e-mails to people (docs/auth.md#links-in-e-mails). Each opens a page that takes the token
 * from its `token` query parameter: the client application's page when SERVICE_APP_URL is set, else the small page
 * the API serves itself at the same path (api/account-pages/).
 */
export const ACCOUNT_PAGE_PATHS = {
  acceptInvitation: '/invitations/accept',
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
} as const;

export type AccountPage = keyof typeof ACCOUNT_PAGE_PATHS;

export interface LinkBase {
  /** The API's public base URL (SERVICE_PUBLIC_URL). */
  publicUrl: string;
  /** The client application's base URL (SERVICE_APP_URL), when there is one. */
  appUrl?: string | null | undefined;
}

/** `<app or API base>/<page path>?token=<token>`; a trailing slash of the base is dropped. */
export function accountLink(base: LinkBase, page: AccountPage, token: string): string {
  const root = (base.appUrl || base.publicUrl).replace(/\/+$/, '');
  return `${root}${ACCOUNT_PAGE_PATHS[page]}?token=${encodeURIComponent(token)}`;
}
