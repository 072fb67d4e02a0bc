import { readFileSync } from 'node:fs';
import path from 'node:path';
import { signedOutMessage } from '../../../domain/auth/endedSessions';
import { SESSION_END_REASONS } from '../../../domain/auth/queries';

/**
 * A token of a session that was ended (logout, revocation, password change...) says it was signed out and why; one
 * of a session that ran out says "session expired" (docs/auth.md#tokens). The reasons are one list, which the
 * table's CHECK constraint repeats. The answers themselves: test/integration/auth.test.ts.
 */

test('each reason has its own "signed out" message, and logout says so in words', () => {
  const messages = SESSION_END_REASONS.map(signedOutMessage);
  expect(new Set(messages).size).toBe(SESSION_END_REASONS.length);
  for (const message of messages) expect(message).toMatch(/^signed out: .+; sign in again$/);
  expect(signedOutMessage('logout')).toBe('signed out: this session was ended by logout; sign in again');
});

test('the migration of ended_sessions accepts exactly these reasons', () => {
  const migration = readFileSync(path.join(__dirname, '../../../db/migrations/1270_ended_sessions.ts'), 'utf8');
  const check = /CHECK \(reason IN\s*\(([^)]*)\)\)/.exec(migration);
  expect(check).not.toBeNull();
  const listed = [...check![1]!.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
  expect(listed).toEqual([...SESSION_END_REASONS]);
});
