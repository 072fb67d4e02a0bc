/**
 * How long a session may stay unused: the platform's idle timeout (SERVICE_AUTH_SESSION_IDLE_TIMEOUT), shortened by
 * an organization's `security.sessionTimeoutMinutes` policy when that is set. A policy longer than the platform's
 * timeout changes nothing: an organization can make its sessions stricter, never looser.
 */
export function sessionIdleLimitMs(platformMs: number, organizationMinutes: number | null | undefined): number {
  return organizationMinutes === null || organizationMinutes === undefined ? platformMs : Math.min(platformMs, organizationMinutes * 60_000);
}

/**
 * For an organization other than the session's active one (named in a path, or the target of a switch): whether the
 * session has been unused for longer than that organization allows. Authentication has counted the current request
 * as activity by then, so the caller ends a session this refuses, or its next request would pass.
 */
export function idleBeyondPolicy(sessionLastUsedMs: number, organizationMinutes: number | null, now = Date.now()): boolean {
  return organizationMinutes !== null && sessionLastUsedMs + organizationMinutes * 60_000 <= now;
}

export const IDLE_BEYOND_POLICY_MESSAGE = 'session expired (idle longer than this organization allows); log in again';
