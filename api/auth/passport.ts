import type { Context } from 'koa';
import koaPassport from 'koa-passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { Strategy as LocalStrategy } from 'passport-local';
import { AppError } from '../../lib/errors';
import type { UserPrincipal } from '../http/route';
import { bearerToken } from './authenticate';
import type { UserRow } from './queries';

/**
 * Passport with two strategies: `local` (e-mail + password, login) and `bearer` (access token, every protected
 * request). One KoaPassport instance per app (not the process-wide singleton), so API instances with different
 * configuration in one process do not replace each other's strategies. The rules live in the verify functions
 * passed in; passport only drives them.
 */
export interface PassportVerifiers {
  /** The user for these credentials, or null (wrong password, unknown e-mail: indistinguishable). */
  verifyCredentials(email: string, password: string): Promise<UserRow | null>;
  /** The principal of a valid access token with a live session; throws the spec's 401 AppErrors. */
  verifyAccessToken(token: string): Promise<UserPrincipal>;
}

export interface AuthPassport {
  login(ctx: Context, credentials: { email: string; password: string }): Promise<UserRow | null>;
  authenticateUser(ctx: Context): Promise<UserPrincipal>;
}

export function createPassport(verifiers: PassportVerifiers): AuthPassport {
  const passport = new koaPassport.KoaPassport();
  passport.use(
    'local',
    new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
      verifiers.verifyCredentials(email, password).then((user) => done(null, user ?? false), done);
    }),
  );
  passport.use(
    'bearer',
    new BearerStrategy((token, done) => {
      verifiers.verifyAccessToken(token).then((principal) => done(null, principal), done);
    }),
  );

  // koa-passport keeps the custom callback's resolver on the callback itself, so the middleware must be created
  // per request (a shared one would mix up concurrent requests).
  function run<T>(strategy: 'local' | 'bearer', ctx: Context): Promise<T | null> {
    return new Promise<T | null>((resolve, reject) => {
      const middleware = passport.authenticate(strategy, { session: false }, (err: unknown, user: T | false) => {
        if (err) reject(err);
        else resolve(user || null);
      });
      Promise.resolve(middleware(ctx, async () => undefined)).catch(reject);
    });
  }

  return {
    async login(ctx, credentials) {
      // passport-local reads the credentials from the request body; ours is already parsed and validated.
      const request = ctx.request as { body?: unknown };
      request.body = credentials;
      try {
        return await run<UserRow>('local', ctx);
      } finally {
        delete request.body; // do not leave the password on the request for later middleware
      }
    },
    async authenticateUser(ctx) {
      bearerToken(ctx); // the spec's first two checks, with its exact messages, before passport parses the header
      const principal = await run<UserPrincipal>('bearer', ctx);
      if (!principal) throw new AppError('UNAUTHORIZED', 'invalid authorization format');
      return principal;
    },
  };
}
