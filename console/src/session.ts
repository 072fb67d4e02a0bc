import { useEffect, useState } from 'preact/hooks';
import { BROWSER_MODE, adoptTokens, api, forgetTokens, renewSession, whenSignedOut, type BrowserTokens } from './api';
import type { Organization, Role, TwoFactorChallenge, User } from './types';

/**
 * Who is signed in, in which organization and with which role. One store for the page; components read it with
 * useSession(). Roles only decide which actions the console offers: the API checks every request itself.
 */
export interface SessionState {
  status: 'loading' | 'signed-out' | 'signed-in';
  user: User | null;
  organizations: Organization[];
  organizationId: string | null;
  role: Role | null;
  /** Why the last session ended, shown on the sign-in page. */
  notice: string | null;
}

let state: SessionState = { status: 'loading', user: null, organizations: [], organizationId: null, role: null, notice: null };
const listeners = new Set<(next: SessionState) => void>();

function publish(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener(state);
}

export function useSession(): SessionState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    setCurrent(state);
    return () => void listeners.delete(setCurrent);
  }, []);
  return current;
}

export function currentSession(): SessionState {
  return state;
}

whenSignedOut(() => publish({ ...signedOut(), notice: 'Your session ended. Sign in again.' }));

function signedOut(): Omit<SessionState, 'notice'> {
  return { status: 'signed-out', user: null, organizations: [], organizationId: null, role: null };
}

async function loadIdentity(): Promise<void> {
  const me = await api<{ user: User; organizationID: string | null }>('/api/auth/me');
  const organizations = await api<{ data: Organization[] }>('/api/v1/organizations', { query: { limit: 100 } });
  // A session without an active organization (a fresh sign-in of a member) opens the first one.
  if (me.organizationID === null && organizations.data[0]) return switchOrganization(organizations.data[0].id);
  const active = organizations.data.find((o) => o.id === me.organizationID);
  publish({
    status: 'signed-in',
    user: me.user,
    organizations: organizations.data,
    organizationId: me.organizationID,
    role: active?.role ?? null,
    notice: null,
  });
}

/** On page load: a session kept in the refresh cookie signs in without asking. */
export async function restoreSession(): Promise<void> {
  try {
    if (await renewSession()) return await loadIdentity();
  } catch {
    // fall through to the sign-in page
  }
  publish(signedOut());
}

type SignInAnswer = { tokens: BrowserTokens } | { challenge: TwoFactorChallenge };

async function finish(answer: SignInAnswer): Promise<TwoFactorChallenge | null> {
  if ('challenge' in answer) return answer.challenge;
  adoptTokens(answer.tokens);
  await loadIdentity();
  return null;
}

/** Password sign-in; answers the two-factor challenge when a second step is due. */
export async function signIn(email: string, password: string): Promise<TwoFactorChallenge | null> {
  return finish(await api<SignInAnswer>('/api/auth/login', { method: 'POST', body: { email, password }, headers: BROWSER_MODE }));
}

/** The second step; without a challenge token, the one an SSO sign-in left in its cookie. */
export async function completeTwoFactor(challengeToken: string | null, code: string): Promise<void> {
  const body = challengeToken ? { challengeToken, code } : { code };
  await finish(await api<SignInAnswer>('/api/auth/login/2fa', { method: 'POST', body, headers: BROWSER_MODE }));
}

/** SSO: the browser goes to the provider and comes back to /console signed in (or to the second step). */
export function ssoSignInUrl(slug: string): string {
  return `/api/auth/sso/${encodeURIComponent(slug)}/authorize?client=console`;
}

export async function switchOrganization(organizationId: string): Promise<void> {
  adoptTokens(
    await api<BrowserTokens>('/api/auth/switch-organization', {
      method: 'POST',
      body: { organizationID: organizationId },
      headers: BROWSER_MODE,
    }),
  );
  await loadIdentity();
}

export async function signOut(): Promise<void> {
  try {
    await api('/api/auth/logout', { method: 'POST' });
  } finally {
    forgetTokens();
    publish({ ...signedOut(), notice: 'Signed out.' });
  }
}
