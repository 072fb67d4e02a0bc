import type { SessionRow, UserRow } from './queries';

/** Row -> JSON for the auth domain. The spec's field names where it has them, ISO 8601 UTC times. */

const iso = (value: Date | string): string => new Date(value).toISOString();

export function userSummary(user: UserRow): { id: string; email: string; name: string | null } {
  return { id: user.id, email: user.email, name: user.name };
}

export function userProfile(user: Omit<UserRow, 'password_hash'>) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    email_verified: user.email_verified,
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
  };
}

export function sessionInfo(session: SessionRow, currentSessionId: string) {
  return {
    id: session.id,
    current: session.id === currentSessionId,
    ip_address: session.ip_address,
    user_agent: session.user_agent,
    active_organization_id: session.active_organization_id,
    created_at: iso(session.created_at),
    last_used_at: iso(session.updated_at),
    expires_at: iso(session.expires_at),
  };
}
