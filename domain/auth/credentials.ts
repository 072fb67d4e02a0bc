import type { Db } from '../../db/knex';
import type { PasswordHasher } from './passwords';
import { findUserForSignIn, type SignInUser } from './queries';

export interface Credentials {
  email: string;
  password: string;
}

/**
 * The check of a login's credentials: the user, or null for a wrong password or an unknown e-mail alike. The login
 * route passes one bound to its request (passport's `local` strategy, api/auth/passport.ts, which ends in the
 * verifier below), so the service keeps its order of limits around the check without knowing about HTTP.
 */
export type CheckCredentials = (credentials: Credentials) => Promise<SignInUser | null>;

/**
 * The `local` strategy's check. Unknown e-mail and wrong password cost the same bcrypt comparison. The user comes with
 * whether two-factor sign-in is on (one query, not two, on the path of every login).
 */
export function createCredentialVerifier(db: Db, passwords: PasswordHasher) {
  return async function verifyCredentials(email: string, password: string): Promise<SignInUser | null> {
    const user = await findUserForSignIn(db, email);
    const ok = await passwords.verify(password, user?.password_hash);
    return ok && user ? user : null;
  };
}
