import { randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { Role } from '../../lib/permissions';
import type { TestApi } from './stack';
import { createTestUser, type TestUser } from './tenants';

/** Fixtures for the organizations domain (and anyone who needs API keys or passwords in tests). */

/** Stores a bcrypt hash (cost 4: fast) as the auth domain would. */
export async function setTestPassword(api: TestApi, userId: string, password: string): Promise<void> {
  await api.deps.db('users').where({ id: userId }).update({ password_hash: await bcrypt.hash(password, 4) });
}

/** A user with a real-looking e-mail (the SMTP catcher indexes by address). */
export async function createNamedTestUser(api: TestApi, activeOrganizationId: string | null = null): Promise<TestUser> {
  const user = await createTestUser(api, activeOrganizationId);
  const email = `u-${randomUUID().slice(0, 12)}@example.com`;
  await api.deps.db('users').where({ id: user.userId }).update({ email });
  return { ...user, email };
}

/** Creates an API key through the API, as `token`'s user; returns the plain key. */
export async function createTestApiKey(
  api: TestApi,
  organizationId: string,
  token: string,
  role: Exclude<Role, 'owner'> = 'member',
): Promise<{ id: string; key: string }> {
  const res = await api.request('POST', `/api/v1/organizations/${organizationId}/api-keys`, {
    token,
    body: { name: `key-${role}`, role },
  });
  if (res.status !== 201) throw new Error(`api key creation failed: ${res.status} ${res.text}`);
  return { id: res.body.id, key: res.body.key };
}
