/**
 * How long a session may stay unused: the platform's idle timeout (SERVICE_AUTH_SESSION_IDLE_TIMEOUT), shortened by
 * an organization's `security.sessionTimeoutMinutes` policy when that is set. A policy longer than the platform's
 * timeout changes nothing: an organization can make its sessions stricter, never looser.
 */
export function sessionIdleLimitMs(platformMs: number, organizationMinutes: number | null | undefined): number {
  return organizationMinutes === null || organizationMinutes === undefined ? platformMs : Math.min(platformMs, organizationMinutes * 60_000);
}
