import { createSecretKey, createHash, randomBytes, randomUUID } from 'node:crypto';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { Client, Connection } from '@temporalio/client';
import bcrypt from 'bcrypt';
import jwt from 'jsonwebtoken';
import Koa from 'koa';
import { Pool } from 'pg';

/**
 * The hand-written endpoints of the "fair baseline" rows (bench/scenarios/fair.ts): what a developer writes with
 * Koa, pg, bcrypt, jsonwebtoken and the Temporal client when a route must do the job correctly and nothing more.
 *
 * - `POST /login` (row `login_fair`): one query for the user by e-mail, `bcrypt.compare` against the stored hash
 *   (the hash the API made, so the same cost), one session row inserted, one access token signed (HS256), JSON out.
 * - `POST /runs` (row `run_1node_cpu_fair`): the bearer token verified (jsonwebtoken, HS256, issuer pinned) and its
 *   session checked with one query (live, and its user a member of the token's organization), one run row
 *   inserted, then the one-step baseline workflow started on the baseline task queue; its activity records the
 *   completion in that row (bench/baseline/activities.ts).
 *
 * Its tables are its own, created at start-up in the scratch database: `bench_baseline_sessions` has the columns,
 * defaults and indexes of the real `sessions` (so an insert maintains as many indexes) plus the foreign key to its
 * user; `bench_baseline_runs` is the smallest run table a listing could use.
 */
const port = Number(process.env.BENCH_BASELINE_PORT);
const secret = process.env.BENCH_JWT_SECRET;
const issuer = process.env.BENCH_JWT_ISSUER ?? 'loom';
const taskQueue = process.env.BENCH_BASELINE_TASK_QUEUE;
if (!port || !secret || !taskQueue) throw new Error('BENCH_BASELINE_PORT, BENCH_JWT_SECRET and BENCH_BASELINE_TASK_QUEUE are required');

const key = createSecretKey(Buffer.from(secret, 'utf8'));
const ACCESS_TTL_SECONDS = 15 * 60;
const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
/** The fixed pipeline's one step: the expression the 1-node DAG of the runs rows evaluates. */
const EXPRESSION = '{"n": n + 1}';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });

async function createTables(): Promise<void> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS bench_baseline_sessions (LIKE sessions INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES);
    ALTER TABLE bench_baseline_sessions DROP CONSTRAINT IF EXISTS bench_baseline_sessions_user_fk;
    ALTER TABLE bench_baseline_sessions ADD CONSTRAINT bench_baseline_sessions_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
    CREATE TABLE IF NOT EXISTS bench_baseline_runs (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
      parameters jsonb NOT NULL DEFAULT '{}',
      result jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS bench_baseline_runs_list_idx ON bench_baseline_runs (organization_id, created_at DESC);
  `);
}

interface Claims {
  sub: string;
  sid: string;
  typ: string;
  organizationID: string | null;
}

function bearerClaims(header: string | undefined): Claims | null {
  const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
  if (!token) return null;
  try {
    const claims = jwt.verify(token, key, { algorithms: ['HS256'], issuer }) as Claims;
    return claims.typ === 'access' && typeof claims.sub === 'string' && typeof claims.sid === 'string' ? claims : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  await createTables();
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  const temporal = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });

  const router = new Router();
  router.post('/login', async (ctx) => {
    const { email, password } = (ctx.request.body ?? {}) as { email?: unknown; password?: unknown };
    if (typeof email !== 'string' || typeof password !== 'string') {
      ctx.status = 400;
      ctx.body = { error: 'email and password are required' };
      return;
    }
    const { rows } = await pool.query<{ id: string; email: string; password_hash: string | null }>(
      'SELECT id, email, password_hash FROM users WHERE lower(email) = lower($1)',
      [email],
    );
    const user = rows[0];
    if (!user?.password_hash || !(await bcrypt.compare(password, user.password_hash))) {
      ctx.status = 401;
      ctx.body = { error: 'invalid e-mail or password' };
      return;
    }
    // The session row keeps only a hash of its refresh token, as the real table does.
    const refreshToken = randomBytes(32).toString('base64url');
    const session = await pool.query<{ id: string }>(
      'INSERT INTO bench_baseline_sessions (user_id, token, expires_at) VALUES ($1, $2, $3) RETURNING id',
      [user.id, createHash('sha256').update(refreshToken).digest('hex'), new Date(Date.now() + SESSION_TTL_MS)],
    );
    const sessionId = session.rows[0]!.id;
    const accessToken = jwt.sign({ sub: user.id, email: user.email, sid: sessionId, typ: 'access' }, key, {
      algorithm: 'HS256',
      expiresIn: ACCESS_TTL_SECONDS,
      issuer,
    });
    ctx.body = { user: { id: user.id, email: user.email }, accessToken, refreshToken };
  });

  router.post('/runs', async (ctx) => {
    const claims = bearerClaims(ctx.get('authorization'));
    if (!claims?.organizationID) {
      ctx.status = 401;
      ctx.body = { error: 'invalid token' };
      return;
    }
    const { rowCount } = await pool.query(
      `SELECT 1 FROM sessions s JOIN memberships m ON m.user_id = s.user_id AND m.organization_id = $3
        WHERE s.id = $1 AND s.user_id = $2 AND s.expires_at > now()`,
      [claims.sid, claims.sub, claims.organizationID],
    );
    if (rowCount !== 1) {
      ctx.status = 401;
      ctx.body = { error: 'session ended' };
      return;
    }
    const { data = { n: 0 } } = (ctx.request.body ?? {}) as { data?: unknown };
    const runId = randomUUID();
    await pool.query('INSERT INTO bench_baseline_runs (id, organization_id, created_by, parameters) VALUES ($1, $2, $3, $4)', [
      runId,
      claims.organizationID,
      claims.sub,
      JSON.stringify({ data }),
    ]);
    await temporal.workflow.start('baselineRecordedRunWorkflow', {
      taskQueue: taskQueue!,
      workflowId: runId,
      args: [runId, EXPRESSION, data],
      // A stuck execution fails instead of staying open, as ours and the other baselines do.
      workflowExecutionTimeout: '60s',
    });
    ctx.status = 201;
    ctx.body = { id: runId, status: 'pending' };
  });

  const app = new Koa();
  app.use(bodyParser());
  app.use(router.routes());
  app.use(router.allowedMethods());
  const server = app.listen(port, '127.0.0.1', () => console.log('baseline fair server listening'));
  process.once('SIGTERM', () => {
    server.close();
    void Promise.all([pool.end(), connection.close()]).finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error(`baseline fair server: ${(err as Error).stack ?? String(err)}`);
  process.exit(1);
});
