import type { Context } from 'koa';
import koaPassport from 'koa-passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { Strategy as LocalStrategy } from 'passport-local';
import { AppError } from '../../lib/errors';
import type { UserPrincipal } from '../../domain/principals';
import { bearerToken } from './authenticate';
import type { SignInUser } from '../../domain/auth/queries';

/**
 * Passport with two strategies: `local` (e-mail + password, login) and `bearer` (access token, every protected
 * request). One KoaPassport instance per app (not the process-wide singleton), so API instances with different
 * configuration in one process do not replace each other's strategies. The rules live in the verify functions
 * passed in; passport only drives them.
 */
export interface PassportVerifiers {
  /** The user for these credentials, or null (wrong password, unknown e-mail: indistinguishable). */
  verifyCredentials(email: string, password: string): Promise<SignInUser | null>;
  /** The principal of a valid access token with a live session; throws the spec's 401 AppErrors. */
  verifyAccessToken(token: string): Promise<UserPrincipal>;
}

export interface AuthPassport {
  login(ctx: Context, credentials: { email: string; password: string }): Promise<SignInUser | null>;
  authenticateUser(ctx: Context): Promise<UserPrincipal>;
}

/** The fields of a request that passport-http-bearer reads. */
interface BearerRequest {
  headers: { authorization?: string };
  query: unknown;
  body: undefined;
}

/** A passport strategy during one attempt: the action functions passport gives it, then `authenticate`. */
interface StrategyAttempt {
  success(user: unknown): void;
  fail(): void;
  pass(): void;
  error(err: unknown): void;
  redirect(): void;
  authenticate(req: BearerRequest, options: { session: false }): void;
}

/**
 * One attempt of a passport strategy, as `passport.authenticate` makes it: a per-request instance whose prototype
 * is the registered strategy, given the action functions (success, fail, error, pass, redirect) the strategy ends
 * with. Used for `bearer`, which runs on every protected request: koa-passport's generic path builds an
 * Express-style request mock over the Koa context (a property delegate per request field) and several promise
 * layers per call, measurable at thousands of requests per second (docs/benchmarks.md); the strategy itself, and
 * so how the token is found and verified, is the same either way.
 */
function attempt<T>(strategy: object, req: BearerRequest): Promise<T | null> {
  return new Promise<T | null>((resolve, reject) => {
    const run = Object.create(strategy) as StrategyAttempt;
    run.success = (user) => resolve(user as T);
    run.fail = () => resolve(null);
    run.pass = () => resolve(null);
    run.error = (err: unknown) => reject(err);
    run.redirect = () => reject(new Error('the bearer strategy cannot redirect'));
    run.authenticate(req, { session: false });
  });
}

export function createPassport(verifiers: PassportVerifiers): AuthPassport {
  const passport = new koaPassport.KoaPassport();
  passport.use(
    'local',
    new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
      verifiers.verifyCredentials(email, password).then((user) => done(null, user ?? false), done);
    }),
  );
  const bearer = new BearerStrategy((token, done) => {
    verifiers.verifyAccessToken(token).then((principal) => done(null, principal), done);
  });
  passport.use('bearer', bearer);

  // koa-passport keeps the custom callback's resolver on the callback itself, so the middleware must be created
  // per request (a shared one would mix up concurrent requests).
  function runLocal(ctx: Context): Promise<SignInUser | null> {
    return new Promise<SignInUser | null>((resolve, reject) => {
      const middleware = passport.authenticate('local', { session: false }, (err: unknown, user: SignInUser | false) => {
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
        return await runLocal(ctx);
      } finally {
        delete request.body; // do not leave the password on the request for later middleware
      }
    },
    async authenticateUser(ctx) {
      bearerToken(ctx); // the spec's first two checks, with its exact messages, before passport parses the header
      // What koa-passport's request mock would show the strategy: the header, the query string, and no body (the
      // body is read after authentication).
      const principal = await attempt<UserPrincipal>(bearer, {
        headers: { authorization: ctx.get('authorization') },
        query: ctx.query,
        body: undefined,
      });
      if (!principal) throw new AppError('UNAUTHORIZED', 'invalid authorization format');
      return principal;
    },
  };
}
