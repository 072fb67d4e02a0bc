import Koa from 'koa';
import { Pool } from 'pg';

/**
 * Baseline for authenticated reads: a bare Koa route doing one `pg` query per request (what the session check
 * costs at least), JSON out. Same database server and pool size as the API.
 */
const port = Number(process.env.BENCH_BASELINE_PORT);
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
const app = new Koa();
app.use(async (ctx) => {
  const { rows } = await pool.query('SELECT id, email, name FROM users WHERE id = $1', [process.env.BENCH_USER_ID]);
  ctx.body = { user: rows[0] ?? null };
});
app.listen(port, '127.0.0.1', () => console.log('baseline koa listening'));
process.once('SIGTERM', () => void pool.end().then(() => process.exit(0)));
