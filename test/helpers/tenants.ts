import { randomUUID } from 'node:crypto';
import { createTokenService, hashToken } from '../../domain/auth/tokens';
import type { Role } from '../../lib/permissions';
import { startApi, type TestApi } from './stack';

export interface TestUser {
  userId: string;
  email: string;
  sessionId: string;
  token: string;
  /** A real refresh token of the session (its SHA-256 is the session's `token` column). */
  refreshToken: string;
}

export interface TestTenant {
  organizationId: string;
  owner: TestUser;
}

/**
 * Fast fixtures for tests of other domains: rows written directly and a real access token signed with the run's
 * secret, so tests need not go through registration and bcrypt. Auth tests use the real endpoints instead.
 */
export async function createTestUser(api: TestApi, activeOrganizationId: string | null = null): Promise<TestUser> {
  const db = api.deps.db;
  const email = `user-${randomUUID()}@example.com`;
  const [user] = await db('users').insert({ email, name: 'Test User' }).returning('id');
  const sessionId = randomUUID();
  const tokens = createTokenService(api.config.jwt);
  const expiresAt = new Date(Date.now() + 86_400_000);
  const refreshToken = tokens.signRefresh({ userId: user.id, sessionId, expiresAt });
  await db('sessions').insert({
    id: sessionId,
    user_id: user.id,
    token: hashToken(refreshToken),
    expires_at: expiresAt,
    active_organization_id: activeOrganizationId,
  });
  const token = tokens.signAccess({
    userId: user.id,
    email,
    sessionId,
    organizationId: activeOrganizationId,
  });
  return { userId: user.id as string, email, sessionId, token, refreshToken };
}

export async function createTestTenant(api: TestApi, plan: 'free' | 'pro' | 'enterprise' = 'pro'): Promise<TestTenant> {
  const db = api.deps.db;
  const slug = `org-${randomUUID().slice(0, 8)}`;
  const [org] = await db('organizations').insert({ name: `Org ${slug}`, slug, plan }).returning('id');
  const owner = await createTestUser(api, org.id);
  await db('memberships').insert({ organization_id: org.id, user_id: owner.userId, role: 'owner' });
  return { organizationId: org.id as string, owner };
}

/** Adds a new user with `role` to the tenant, with the tenant as the session's active organization. */
export async function addTestMember(api: TestApi, tenant: TestTenant, role: Role): Promise<TestUser> {
  const member = await createTestUser(api, tenant.organizationId);
  await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: member.userId, role });
  return member;
}

/** The usual start of an integration test file: an in-process API and a tenant (owner signed in) on it. */
export async function startApiWithTenant(overrides: Record<string, string> = {}): Promise<{ api: TestApi; tenant: TestTenant; token: string }> {
  const api = await startApi(overrides);
  const tenant = await createTestTenant(api);
  return { api, tenant, token: tenant.owner.token };
}
