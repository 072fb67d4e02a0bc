/**
 * Roles and the one permission table. Routes name the permission they need; `can` is the only place a role is
 * compared. "Own resources" rules (a member may change what it created) live in the domain services on top of this.
 */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  'organization:read': ['owner', 'admin', 'member', 'viewer'],
  'organization:update': ['owner', 'admin'],
  'organization:delete': ['owner'],
  'organization:billing': ['owner'],
  'organization:transfer': ['owner'],
  'members:read': ['owner', 'admin', 'member', 'viewer'],
  'members:manage': ['owner', 'admin'],
  'settings:read': ['owner', 'admin', 'member'],
  'settings:update': ['owner', 'admin'],
  'integrations:manage': ['owner', 'admin'],
  // Organization secrets: members see names (to write {{secret.NAME}}); values are never readable by anyone.
  'secrets:read': ['owner', 'admin', 'member'],
  'secrets:write': ['owner', 'admin'],
  'audit:read': ['owner', 'admin'],
  'usage:read': ['owner', 'admin', 'member', 'viewer'],
  'content:read': ['owner', 'admin', 'member', 'viewer'],
  'content:write': ['owner', 'admin', 'member'],
  'workflow:read': ['owner', 'admin', 'member', 'viewer'],
  'workflow:write': ['owner', 'admin', 'member'],
  'run:read': ['owner', 'admin', 'member', 'viewer'],
  'run:execute': ['owner', 'admin', 'member'],
  'events:publish': ['owner', 'admin', 'member'],
  'operations:manage': ['owner', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Roles ordered by power; used when a rule says "a role at least as high as". */
export const ROLE_RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
