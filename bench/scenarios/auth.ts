import { createHmac, createSecretKey, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import bcrypt from 'bcrypt';
import { createTokenService } from '../../domain/auth/tokens';
import { registerUser } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { cpuMeter, postgresPids, threadCpuMeter, type ThreadCpu } from '../lib/cpu';
import { freePort, spawnNode, waitForHttp } from '../lib/procs';
import { ratioOf } from '../lib/results';
import { round } from '../lib/stats';

/**
 * Rows 1–3: authenticated reads against a bare Koa + pg route, JWT verification, login against raw bcrypt, and
 * read latency under login load.
 */
export async function authScenario(ctx: BenchContext): Promise<void> {
  await authenticatedReads(ctx);
  jwtVerify(ctx);
  await login(ctx);
}

export async function blast(url: string, seconds: number, connections: number, headers: Record<string, string>, extra: Partial<autocannon.Options> = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers, timeout: 10, ...extra });
  return {
    rps: result.requests.average,
    // Answers that succeeded, per second: a refused login (429, 401) is no login.
    okPerSecond: result['2xx'] / seconds,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export type Blast = Awaited<ReturnType<typeof blast>>;

/** Several equal-length blasts of one target as one: the mean req/s, the worst p99 (and p50) of any round. */
export function combined(rounds: Blast[]): Blast {
  const sum = (pick: (b: Blast) => number) => rounds.reduce((total, b) => total + pick(b), 0);
  return {
    rps: sum((b) => b.rps) / rounds.length,
    okPerSecond: sum((b) => b.okPerSecond) / rounds.length,
    ok: sum((b) => b.ok),
    non2xx: sum((b) => b.non2xx),
    errors: sum((b) => b.errors),
    p50: Math.max(...rounds.map((b) => b.p50)),
    p99: Math.max(...rounds.map((b) => b.p99)),
  };
}

/**
 * Both servers stay up and are measured in alternating rounds after the same warm-up, so a drift of the machine
 * (another tenant of the host, CPU frequency) or the JIT still warming up weighs on both sides alike instead of on
 * whichever ran second.
 */
async function authenticatedReads(ctx: BenchContext): Promise<void> {
  const { params, scratch, session, stack } = ctx;
  const port = await freePort();
  const koa = spawnNode({
    name: 'baseline-koa',
    script: 'bench/baseline/koaServer.ts',
    env: { BENCH_BASELINE_PORT: String(port), DATABASE_URL: scratch.dbUrl, BENCH_USER_ID: session.userId },
    logDir: scratch.logDir,
  });
  const baselineRounds: Blast[] = [];
  const ourRounds: Blast[] = [];
  const headers = { authorization: `Bearer ${session.token}` };
  const ourUrl = `${stack.apiUrl}/api/auth/me`;
  // Each autocannon run opens its connections anew, and the first half second of a run is slower on both sides
  // (connection set-up, the client's own warm-up): full-length rounds keep that transient from dominating p99.
  const rounds = 2;
  const roundSeconds = params.httpSeconds;
  try {
    const baselineUrl = `http://127.0.0.1:${port}/`;
    await waitForHttp(koa, baselineUrl);
    await blast(baselineUrl, params.httpWarmupSeconds, params.httpConnections, {});
    await blast(ourUrl, params.httpWarmupSeconds, params.httpConnections, headers);
    for (let round = 0; round < rounds; round += 1) {
      baselineRounds.push(await blast(baselineUrl, roundSeconds, params.httpConnections, {}));
      ourRounds.push(await blast(ourUrl, roundSeconds, params.httpConnections, headers));
    }
  } finally {
    await koa.stop();
  }
  const baseline = combined(baselineRounds);
  const ours = combined(ourRounds);
  const ratio = ratioOf(ours.rps, baseline.rps);
  ctx.addRow({
    id: 'auth_me',
    path: `GET /api/auth/me, ${params.httpConnections} connections (req/s)`,
    baseline: { label: 'bare Koa + one pg query', value: round(baseline.rps), unit: 'req/s' },
    ours: { value: round(ours.rps), unit: 'req/s' },
    ratio: round(ratio, 3),
    goal: '>= 0.7x, >= 3000 req/s, p99 <= 25 ms',
    met: ratio >= 0.7 && ours.rps >= 3000 && ours.p99 <= 25 && ours.non2xx === 0,
    notes: `${rounds} alternating rounds of ${roundSeconds} s after ${params.httpWarmupSeconds} s of warm-up each; worst-round p99 ours ${ours.p99} ms, baseline ${baseline.p99} ms; non-2xx ${ours.non2xx}, errors ${ours.errors}`,
    details: { baseline, ours, baselineRounds, ourRounds },
  });
}

function jwtVerify(ctx: BenchContext): void {
  const { params, scratch } = ctx;
  const tokens = createTokenService(scratch.base.jwt);
  const token = tokens.signAccess({ userId: ctx.session.userId, email: ctx.session.email, sessionId: randomUUID(), organizationId: null });
  const time = (fn: () => void): number => {
    for (let i = 0; i < Math.min(5000, params.jwtIterations); i += 1) fn();
    const start = process.hrtime.bigint();
    for (let i = 0; i < params.jwtIterations; i += 1) fn();
    return Number(process.hrtime.bigint() - start) / 1000 / params.jwtIterations;
  };
  const ours = time(() => tokens.verifyAccess(token));
  // The floor of any HS256 verifier: one HMAC over the signing input and a comparison, same key object.
  const key = createSecretKey(Buffer.from(scratch.base.jwt.secret, 'utf8'));
  const dot = token.lastIndexOf('.');
  const signingInput = token.slice(0, dot);
  const signature = token.slice(dot + 1);
  const baseline = time(() => {
    if (createHmac('sha256', key).update(signingInput).digest('base64url') !== signature) throw new Error('bad signature');
  });
  ctx.addRow({
    id: 'jwt_verify',
    path: 'JWT verification, domain/auth/tokens.ts verifyAccess (µs per verify)',
    baseline: { label: 'raw HMAC-SHA256 of the signing input (floor)', value: round(baseline, 3), unit: 'µs' },
    ours: { value: round(ours, 3), unit: 'µs' },
    ratio: round(ratioOf(ours, baseline), 3),
    goal: '<= 15 µs per verify (absolute)',
    met: ours <= 15,
    notes: `${params.jwtIterations} verifies in the bench process`,
  });
}

async function bcryptThroughput(password: string, seconds: number, concurrency: number): Promise<number> {
  const hash = await bcrypt.hash(password, 10);
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        if (!(await bcrypt.compare(password, hash))) throw new Error('bcrypt.compare failed');
        done += 1;
      }
    }),
  );
  return done / ((Date.now() - start) / 1000);
}

/** Logins in flight in the login rows (this floor and `login_fair`, bench/scenarios/fair.ts). */
export const LOGIN_CONNECTIONS = 8;

async function login(ctx: BenchContext): Promise<void> {
  const { params, stack, session } = ctx;
  const loginUser = await registerUser(stack.apiUrl, 'login-load');
  const connections = LOGIN_CONNECTIONS;
  const baseline = await bcryptThroughput(loginUser.password, params.loginSeconds, connections);

  const loginOptions = {
    method: 'POST',
    body: JSON.stringify({ email: loginUser.email, password: loginUser.password }),
  };
  const loginUrl = `${stack.apiUrl}/api/auth/login`;
  const json = { 'content-type': 'application/json' };
  await blast(loginUrl, 1, connections, json, loginOptions);
  // Where a login's CPU goes, measured over the same blast: what is not bcrypt is what keeps this row under 1x.
  const apiThreads = stack.api ? threadCpuMeter(stack.api.pid) : null;
  const postgres = cpuMeter({ postgres: postgresPids });
  const metered = performance.now();
  const logins = await blast(loginUrl, params.loginSeconds, connections, json, loginOptions);
  const postgresSeconds = ((postgres.stop().postgres ?? 0) / 100) * ((performance.now() - metered) / 1000);
  const perLogin = loginCpuSplit(apiThreads?.stop() ?? null, postgresSeconds, logins.ok);

  const readUrl = `${stack.apiUrl}/api/auth/me`;
  const readHeaders = { authorization: `Bearer ${session.token}` };
  const readOptions = { overallRate: params.readsRate };
  const quiet = await blast(readUrl, params.loginSeconds, 10, readHeaders, readOptions);
  const [loaded] = await Promise.all([
    blast(readUrl, params.loginSeconds, 10, readHeaders, readOptions),
    blast(loginUrl, params.loginSeconds, connections, json, loginOptions),
  ]);

  const loginRatio = ratioOf(logins.okPerSecond, baseline);
  ctx.addRow({
    id: 'login',
    path: `POST /api/auth/login, ${connections} connections (logins/s)`,
    baseline: { label: `floor: raw bcrypt.compare, cost 10, ${connections} in flight, no HTTP, no database`, value: round(baseline), unit: 'ops/s' },
    ours: { value: round(logins.okPerSecond), unit: 'logins/s' },
    ratio: round(loginRatio, 3),
    goal: 'floor: raw bcrypt; >= 0.9x',
    met: loginRatio >= 0.9 && logins.non2xx === 0,
    notes: `login p99 ${logins.p99} ms; non-2xx ${logins.non2xx}; ${perLogin.text}`,
    details: { logins, cpuPerLoginMs: perLogin.ms },
  });
  const p99Ratio = ratioOf(loaded.p99, quiet.p99);
  ctx.addRow({
    id: 'login_reads_p99',
    path: `GET /api/auth/me p99 at ${params.readsRate} req/s, during login load vs without`,
    baseline: { label: 'same reads, no login load', value: quiet.p99, unit: 'ms' },
    ours: { value: loaded.p99, unit: 'ms' },
    ratio: round(p99Ratio, 3),
    goal: '<= 1.5x',
    met: p99Ratio <= 1.5,
    notes: `p50 ${quiet.p50} -> ${loaded.p50} ms`,
    details: { quiet, loaded },
  });
}

/**
 * CPU per login in ms: the API's password threads (bcrypt), its event loop, its other threads, and PostgreSQL. With
 * both cores busy, logins/s can reach at most bcrypt's share of that sum times raw bcrypt's rate.
 */
function loginCpuSplit(threads: ThreadCpu | null, postgresSeconds: number, logins: number) {
  if (!threads || logins === 0) return { ms: null, text: 'CPU per login not measured' };
  const per = (cpuSeconds: number) => round((cpuSeconds * 1000) / logins, 2);
  const ms = {
    passwordThreads: per(threads.lowPriority),
    eventLoop: per(threads.main),
    otherApiThreads: per(threads.other),
    postgres: per(postgresSeconds),
  };
  const total = ms.passwordThreads + ms.eventLoop + ms.otherApiThreads + ms.postgres;
  const share = total > 0 ? round(ms.passwordThreads / total, 3) : 0;
  return {
    ms: { ...ms, bcryptShare: share },
    text:
      `CPU per login: password threads ${ms.passwordThreads} ms, event loop ${ms.eventLoop} ms, other API threads ` +
      `${ms.otherApiThreads} ms, PostgreSQL ${ms.postgres} ms; bcrypt's share ${share} bounds the ratio when the cores are busy`,
  };
}
