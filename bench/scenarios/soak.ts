import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { call, registerTenant, type ApiSession } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { cpuMeter, pidsMatching, stackCpuGroups } from '../lib/cpu';
import { databaseBytes, growthPer1000Runs, sqliteBytes, temporalDbFile, temporalPids } from '../lib/growth';
import { sampleClosedLoop } from '../lib/load';
import { pidsWithCommandLine, rssTrend, startRssSampler, type RssTarget, type RssTrend } from '../lib/rss';
import { openLoop, weightedPicker, type OpenLoopResult, type SoakKind } from '../lib/soakLoad';
import { round, sleep } from '../lib/stats';

/**
 * Soak (issue 21): mixed load held for a long time (30 minutes full, 2 in the smoke) at about half of what the
 * stack can take, to find what a short row cannot: errors that appear only after a while, runs lost or doubled,
 * memory that creeps up, storage that grows faster than the work done.
 *
 * - The mix, in proportion: authenticated reads (`GET /api/auth/me`), run starts that wait for the run
 *   (`POST /api/v1/workflows/{id}/runs?wait=30s`, a 1-node `json_transform` DAG), small uploads (16–64 KB,
 *   `POST /api/v1/content`), hybrid searches (`POST /api/v1/content/search`) over a few embedded documents, and
 *   webhook triggers of the same workflow (`POST /api/hooks/{org}/{path}` with `Prefer: wait=30`). Every answer is
 *   checked, status and body.
 * - The rate: the same mix is first driven closed-loop (`soakCeilingConcurrency` in flight, `soakCeilingSeconds`);
 *   its throughput is the ceiling of this mix on this machine, and the soak sends `soakLoadFraction` of it,
 *   open-loop (`--soak-rate` fixes the rate instead). The ceiling of the mix, not of runs alone, because the load is
 *   the mix: half its ceiling leaves the bottleneck (the worker, Temporal's SQLite) about half idle.
 * - Runs: each start carries a unique `marker` parameter (mapped from the webhook body for triggers); at the end
 *   every row of the workflow in the scratch database is matched to the markers sent: each acknowledged run must
 *   exist exactly once, `completed`, with the id the answer gave.
 * - Memory and storage: docs/benchmarks.md#soak.
 *
 * The scenario has its own tenant, so searches see only its documents and the checks only its runs.
 */

/** Weights of the mix (per request): cheap authenticated reads most often, runs (the expensive part) next. */
const MIX = { me: 40, run: 25, webhook: 15, upload: 10, search: 10 } as const;
/** How long a run start or webhook waits for its run (the runs take ~0.1 s; more is a stuck run, reported). */
const WAIT_SECONDS = 30;
/** Client-side bound on every request: the wait plus margin. */
const REQUEST_TIMEOUT_MS = (WAIT_SECONDS + 15) * 1000;
/**
 * Flat RSS: |slope| under 1 MB/min, fitted over the samples after warm-up. At the soak's rate on the 2-core dev box
 * (~12 req/s, 750 a minute) a leak of about 1.4 KB per request passes it; much below it, a 30-minute fit cannot tell a
 * trend from the garbage collector's sawtooth and pool connections opening and closing (tens of MB up and down within
 * a minute). The 2-minute smoke is too short for the threshold to mean anything.
 */
const FLAT_MB_PER_MINUTE = 1;
/** Access tokens live 15 minutes (SERVICE_JWT_ACCESS_TOKEN_DURATION): a full soak logs in again every 10. */
const TOKEN_RENEW_MS = 10 * 60_000;
/** After the load, how long runs still open may take to end before the check counts them as not completed. */
const SETTLE_MS = 60_000;
const SEED_DOCUMENTS = 12;
const SEED_TIMEOUT_MS = 90_000;
const WORKFLOW_PARAMETER = 'marker';
const HOOK_PATH = 'soak';

interface Answer {
  status: number;
  text: string;
  body: unknown;
}

/** One request to the API under test (always 127.0.0.1, the bench's child), bounded by REQUEST_TIMEOUT_MS. */
async function request(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, text, body: parsed };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `results.echo.result.m` of a finished run: the marker the node echoed back. */
const echoed = (results: unknown): unknown => {
  const echo = isObject(results) ? results.echo : undefined;
  const result = isObject(echo) ? echo.result : undefined;
  return isObject(result) ? result.m : undefined;
};
const refused = (what: string, answer: Answer) => new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);

function multipart(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }): { body: Buffer; contentType: string } {
  const boundary = `----soak${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A run the soak started: which path, which phase, and the id the answer gave (null when no answer named one). */
interface Started {
  kind: 'run' | 'webhook';
  phase: 'ceiling' | 'soak';
  runId: string | null;
}

interface Seed {
  id: string;
  query: string;
}

/** The tenant, its workflow and everything the requests need, with the bookkeeping of what was sent. */
class SoakClient {
  token: string;
  secret = '';
  workflowId = '';
  readonly seeds: Seed[] = [];
  readonly started = new Map<string, Started>();
  private sequence = 0;
  private seedTurn = 0;

  constructor(
    readonly apiUrl: string,
    readonly session: ApiSession,
  ) {
    this.token = session.token;
  }

  private auth(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }

  /** A new session through the API (login, then the organization), for soaks longer than a token's life. */
  async renewToken(): Promise<void> {
    const login = await call<{ tokens: { accessToken: string } }>(this.apiUrl, 'POST', '/api/auth/login', {
      body: { email: this.session.email, password: this.session.password },
      expect: 200,
    });
    const switched = await call<{ accessToken: string }>(this.apiUrl, 'POST', '/api/auth/switch-organization', {
      token: login.tokens.accessToken,
      body: { organizationID: this.session.organizationId },
      expect: 200,
    });
    this.token = switched.accessToken;
  }

  /** The workflow both run paths start: one json_transform node echoing the run's marker; a bearer webhook trigger. */
  async createWorkflow(): Promise<void> {
    const created = await call<{ id: string }>(this.apiUrl, 'POST', '/api/v1/workflows', {
      token: this.token,
      body: {
        name: 'bench soak',
        dag: {
          nodes: [
            {
              id: 'echo',
              type: 'tool',
              config: { tool: 'json_transform', config: { expression: '{"m": m}', data: { m: `\${params.${WORKFLOW_PARAMETER}}` } } },
            },
          ],
          edges: [],
        },
        parameters: [{ name: WORKFLOW_PARAMETER, type: 'string', required: true }],
        triggers: [
          {
            id: HOOK_PATH,
            type: 'webhook',
            // The trigger's limiter stays on (its cost is part of the path), far above the soak's rate.
            config: { path: HOOK_PATH, method: 'POST', authentication: 'bearer', parameters: { [WORKFLOW_PARAMETER]: `body.${WORKFLOW_PARAMETER}` }, rateLimit: '1000000/1m' },
          },
        ],
      },
    });
    this.workflowId = created.id;
    await call(this.apiUrl, 'POST', `/api/v1/workflows/${this.workflowId}/activate`, { token: this.token, expect: 200 });
    const secret = await call<{ secret: string }>(this.apiUrl, 'POST', `/api/v1/workflows/${this.workflowId}/triggers/${HOOK_PATH}/secret`, {
      token: this.token,
    });
    this.secret = secret.secret;
  }

  /**
   * Text documents for the searches, embedded through the API (uploads in the bench are not processed:
   * CONTENT_PROCESS_ON_UPLOAD is off for the whole run). Each carries words of its own, so a search for them must
   * find it among the hits.
   */
  async seedDocuments(count: number, log: (line: string) => void): Promise<void> {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const word = () => Array.from({ length: 9 }, () => letters[randomInt(letters.length)]).join('');
    const common = Array.from({ length: 40 }, word);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const own = Array.from({ length: 3 }, word);
      const filler = Array.from({ length: 120 }, () => common[randomInt(common.length)]).join(' ');
      const text = `${own.join(' ')}. ${filler}. ${own.join(' ')}.`;
      const { body, contentType } = multipart({ title: `soak seed ${i}` }, { name: `seed-${i}.txt`, type: 'text/plain', bytes: Buffer.from(text) });
      const uploaded = await request(`${this.apiUrl}/api/v1/content`, 'POST', { ...this.auth(), 'content-type': contentType }, body);
      if (uploaded.status !== 201 || !isObject(uploaded.body) || typeof uploaded.body.id !== 'string') throw refused('seed upload', uploaded);
      const id = uploaded.body.id;
      const embed = await request(`${this.apiUrl}/api/v1/content/${id}/embed`, 'POST', { ...this.auth(), 'content-type': 'application/json' }, '{}');
      if (embed.status !== 202) throw refused('seed embed', embed);
      ids.push(id);
      this.seeds.push({ id, query: own.join(' ') });
    }
    const deadline = Date.now() + SEED_TIMEOUT_MS;
    const waiting = new Set(ids);
    while (waiting.size && Date.now() < deadline) {
      for (const id of [...waiting]) {
        const status = await request(`${this.apiUrl}/api/v1/content/${id}/status`, 'GET', this.auth());
        const state = isObject(status.body) ? status.body.status : undefined;
        if (status.status !== 200) throw refused('seed status', status);
        if (state === 'failed') throw new Error(`seed ${id} failed to embed: ${status.text.slice(0, 500)}`);
        if (state === 'processed') waiting.delete(id);
      }
      if (waiting.size) await sleep(250);
    }
    if (waiting.size) throw new Error(`${waiting.size} of ${ids.length} seed documents not embedded within ${SEED_TIMEOUT_MS / 1000} s`);
    log(`  ${ids.length} seed documents uploaded and embedded`);
  }

  private marker(phase: Started['phase'], kind: Started['kind']): { marker: string; entry: Started } {
    this.sequence += 1;
    const marker = `${phase === 'soak' ? 's' : 'c'}-${kind === 'run' ? 'r' : 'w'}-${this.sequence}`;
    const entry: Started = { kind, phase, runId: null };
    this.started.set(marker, entry);
    return { marker, entry };
  }

  async me(): Promise<void> {
    const answer = await request(`${this.apiUrl}/api/auth/me`, 'GET', this.auth());
    if (answer.status !== 200) throw refused('GET /api/auth/me', answer);
    const user = isObject(answer.body) ? answer.body.user : undefined;
    if (!isObject(user) || user.id !== this.session.userId || (answer.body as Record<string, unknown>).organizationID !== this.session.organizationId) {
      throw new Error(`GET /api/auth/me answered another user or organization: ${answer.text.slice(0, 300)}`);
    }
  }

  async runAndWait(phase: Started['phase']): Promise<void> {
    const { marker, entry } = this.marker(phase, 'run');
    const answer = await request(
      `${this.apiUrl}/api/v1/workflows/${this.workflowId}/runs?wait=${WAIT_SECONDS}s`,
      'POST',
      { ...this.auth(), 'content-type': 'application/json' },
      JSON.stringify({ parameters: { [WORKFLOW_PARAMETER]: marker } }),
    );
    const body = isObject(answer.body) ? answer.body : {};
    if (typeof body.id === 'string') entry.runId = body.id;
    if (answer.status !== 200) throw refused(`run start ${marker}`, answer);
    if (body.status !== 'completed' || echoed(body.results) !== marker) {
      throw new Error(`run ${String(body.id)} (${marker}) answered ${String(body.status)} with ${JSON.stringify(body.results).slice(0, 200)}`);
    }
  }

  async webhook(phase: Started['phase']): Promise<void> {
    const { marker, entry } = this.marker(phase, 'webhook');
    const answer = await request(
      `${this.apiUrl}/api/hooks/${this.session.organizationId}/${HOOK_PATH}`,
      'POST',
      { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json', prefer: `wait=${WAIT_SECONDS}` },
      JSON.stringify({ [WORKFLOW_PARAMETER]: marker }),
    );
    const body = isObject(answer.body) ? answer.body : {};
    if (typeof body.run_id === 'string') entry.runId = body.run_id;
    if (answer.status !== 200) throw refused(`webhook ${marker}`, answer);
    if (body.workflow_id !== this.workflowId || body.status !== 'completed' || echoed(body.results) !== marker) {
      throw new Error(`webhook run ${String(body.run_id)} (${marker}) answered ${String(body.status)} with ${JSON.stringify(body.results).slice(0, 200)}`);
    }
  }

  async upload(): Promise<void> {
    const bytes = randomBytes(16 * 1024 + randomInt(48 * 1024 + 1));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const { body, contentType } = multipart({ title: 'soak upload' }, { name: 'soak.bin', type: 'application/octet-stream', bytes });
    const answer = await request(`${this.apiUrl}/api/v1/content`, 'POST', { ...this.auth(), 'content-type': contentType }, body);
    if (answer.status !== 201) throw refused('upload', answer);
    const content = isObject(answer.body) ? answer.body : {};
    if (typeof content.id !== 'string' || content.size !== bytes.length || content.sha256 !== sha256) {
      throw new Error(`upload of ${bytes.length} bytes answered ${answer.text.slice(0, 300)}`);
    }
  }

  async search(): Promise<void> {
    const seed = this.seeds[this.seedTurn++ % this.seeds.length]!;
    const answer = await request(
      `${this.apiUrl}/api/v1/content/search`,
      'POST',
      { ...this.auth(), 'content-type': 'application/json' },
      JSON.stringify({ query: seed.query, mode: 'hybrid', limit: 10 }),
    );
    if (answer.status !== 200) throw refused('search', answer);
    const data = isObject(answer.body) ? answer.body.data : undefined;
    if (!Array.isArray(data) || !data.some((hit) => isObject(hit) && isObject(hit.content) && hit.content.id === seed.id)) {
      throw new Error(`search for "${seed.query}" did not find its document ${seed.id}: ${answer.text.slice(0, 300)}`);
    }
  }

  kinds(phase: Started['phase']): SoakKind[] {
    return [
      { name: 'me', weight: MIX.me, send: () => this.me() },
      { name: 'run', weight: MIX.run, send: () => this.runAndWait(phase) },
      { name: 'webhook', weight: MIX.webhook, send: () => this.webhook(phase) },
      { name: 'upload', weight: MIX.upload, send: () => this.upload() },
      { name: 'search', weight: MIX.search, send: () => this.search() },
    ];
  }
}

interface RunCheck {
  acknowledged: number;
  completedOnce: number;
  lost: number;
  duplicated: number;
  unexpected: number;
  mismatched: number;
  unknownOutcome: number;
  stillOpen: number;
  soakRuns: number;
  byTrigger: Record<string, number>;
  examples: string[];
}

/**
 * Waits (bounded) until no run of the workflow is open, then matches every row to the markers sent. Lost: an
 * acknowledged run (its answer named a run id) with no row, or whose row is not `completed`. Duplicated: a marker
 * with more than one row. Unexpected: a row whose marker nobody sent. Mismatched: the row's id or trigger is not
 * the one the answer gave or the path implies. A request that failed before naming a run (timeout, refusal) is
 * "unknown outcome": its run may or may not exist, but never twice.
 */
async function checkRuns(dbUrl: string, workflowId: string, started: Map<string, Started>): Promise<RunCheck> {
  const pg = new PgClient({ connectionString: dbUrl });
  await pg.connect();
  try {
    const deadline = Date.now() + SETTLE_MS;
    let open = 0;
    do {
      const { rows } = await pg.query<{ open: string }>(
        `SELECT count(*)::text AS open FROM workflow_runs WHERE workflow_id = $1 AND status IN ('pending', 'running')`,
        [workflowId],
      );
      open = Number(rows[0]!.open);
      if (open > 0) await sleep(500);
    } while (open > 0 && Date.now() < deadline);

    const { rows } = await pg.query<{ id: string; status: string; marker: string | null; trigger: string | null }>(
      `SELECT id, status, parameters->>($2::text) AS marker, trigger->>'type' AS trigger FROM workflow_runs WHERE workflow_id = $1`,
      [workflowId, WORKFLOW_PARAMETER],
    );
    const byMarker = new Map<string, typeof rows>();
    const check: RunCheck = {
      acknowledged: 0,
      completedOnce: 0,
      lost: 0,
      duplicated: 0,
      unexpected: 0,
      mismatched: 0,
      unknownOutcome: 0,
      stillOpen: open,
      soakRuns: 0,
      byTrigger: {},
      examples: [],
    };
    const example = (line: string) => check.examples.length < 5 && check.examples.push(line);
    for (const row of rows) {
      check.byTrigger[row.trigger ?? 'none'] = (check.byTrigger[row.trigger ?? 'none'] ?? 0) + 1;
      if (row.marker === null || !started.has(row.marker)) {
        check.unexpected += 1;
        example(`unexpected run ${row.id} (marker ${row.marker})`);
        continue;
      }
      byMarker.set(row.marker, [...(byMarker.get(row.marker) ?? []), row]);
    }
    for (const [marker, entry] of started) {
      const found = byMarker.get(marker) ?? [];
      if (entry.phase === 'soak') check.soakRuns += found.length;
      if (found.length > 1) {
        check.duplicated += found.length - 1;
        example(`${marker}: ${found.length} runs (${found.map((r) => r.id).join(', ')})`);
      }
      if (entry.runId === null) {
        check.unknownOutcome += 1;
        continue;
      }
      check.acknowledged += 1;
      const row = found.find((r) => r.id === entry.runId);
      if (!row) {
        if (found.length) {
          check.mismatched += 1;
          example(`${marker}: answered run ${entry.runId}, stored ${found.map((r) => r.id).join(', ')}`);
        } else {
          check.lost += 1;
          example(`${marker}: run ${entry.runId} has no row`);
        }
        continue;
      }
      if (row.status !== 'completed') {
        check.lost += 1;
        example(`${marker}: run ${row.id} is ${row.status}`);
        continue;
      }
      const expectedTrigger = entry.kind === 'webhook' ? 'webhook' : 'manual';
      if (row.trigger !== expectedTrigger) {
        check.mismatched += 1;
        example(`${marker}: run ${row.id} has trigger ${row.trigger}, expected ${expectedTrigger}`);
        continue;
      }
      if (found.length === 1) check.completedOnce += 1;
    }
    return check;
  } finally {
    await pg.end();
  }
}

/** The processes whose memory the soak follows: ours (children of the bench) and the shared services. */
function rssTargets(ctx: BenchContext): { targets: RssTarget[]; missing: string[] } {
  const { scratch, stack } = ctx;
  const targets: RssTarget[] = [];
  const missing: string[] = [];
  const apiPid = stack.api!.pid;
  targets.push({ name: 'api', pids: () => [apiPid] });
  for (const worker of stack.workers) targets.push({ name: worker.name, pids: () => [worker.pid] });
  const temporal = temporalPids(scratch.base.temporal.address);
  if (temporal.length) targets.push({ name: 'temporal', pids: () => temporal });
  else missing.push('temporal');
  // The scratch database's backends: their process title names the database (`postgres: ... <db> 127.0.0.1(port) idle`).
  const backends = () => pidsMatching((cmdline, comm) => comm === 'postgres' && cmdline.includes(` ${scratch.dbName} `));
  if (backends().length) targets.push({ name: `postgres backends of ${scratch.dbName}`, pids: backends, privateOnly: true, churns: true });
  else missing.push('postgres backends');
  const minioPort = `:${scratch.base.minio.port}`;
  const onPort = pidsWithCommandLine('minio', 'server', minioPort);
  const minio = onPort.length ? onPort : pidsWithCommandLine('minio', 'server');
  if (minio.length) targets.push({ name: 'minio', pids: () => minio });
  else missing.push('minio');
  return { targets, missing };
}

const mb = (bytes: number) => round(bytes / 1024 / 1024, 2);

export async function soakScenario(ctx: BenchContext): Promise<void> {
  const { params, scratch, stack } = ctx;
  if (!stack.api) throw new Error('soak: the API is not running');
  // The profile scenario stops the run's workers (it drives a profiled one of its own): runs need one again.
  if (stack.workers.length === 0) {
    await stack.startWorker();
    ctx.log('  started a worker (none was left running)');
  }
  const session = await registerTenant(stack.apiUrl, scratch.dbUrl, 'soak');
  const client = new SoakClient(stack.apiUrl, session);
  await client.createWorkflow();
  await client.seedDocuments(SEED_DOCUMENTS, ctx.log);

  // Prove every path once before any load: a broken path fails here with its real error.
  for (const kind of client.kinds('ceiling')) await kind.send();

  // The ceiling of this mix: closed loop, the kinds taken in proportion across all lanes.
  let ceiling: number | null = null;
  let ceilingFailed = 0;
  let ceilingError: string | undefined;
  let rate: number;
  if (params.soakRate !== null) {
    rate = params.soakRate;
    ctx.log(`  soak rate fixed at ${rate} req/s (--soak-rate); no ceiling measured`);
  } else {
    const pick = weightedPicker(client.kinds('ceiling'));
    const burst = await sampleClosedLoop(params.soakCeilingConcurrency, params.soakCeilingSeconds, () => pick().send());
    ceiling = burst.latencies.length / burst.seconds;
    ceilingFailed = burst.failed;
    ceilingError = burst.firstError;
    if (burst.latencies.length === 0) throw new Error(`soak: nothing completed while measuring the ceiling (${burst.firstError ?? 'no error seen'})`);
    rate = ceiling * params.soakLoadFraction;
    ctx.log(
      `  mix ceiling ${round(ceiling)} req/s (${params.soakCeilingConcurrency} in flight, ${round(burst.seconds)} s, ${burst.failed} failed); ` +
        `soak at ${round(params.soakLoadFraction * 100)}%: ${round(rate)} req/s for ${params.soakSeconds} s`,
    );
  }

  const temporalFile = temporalDbFile(scratch.base.temporal.address);
  const pgBefore = await databaseBytes(scratch.dbUrl);
  const temporalBefore = temporalFile ? sqliteBytes(temporalFile) : Number.NaN;
  const { targets, missing } = rssTargets(ctx);
  if (missing.length) ctx.log(`  RSS not followed for: ${missing.join(', ')} (process not found)`);
  const everyMs = params.soakRssEverySeconds * 1000;
  const sampler = startRssSampler(targets, everyMs, Math.ceil(params.soakSeconds / params.soakRssEverySeconds) + 2);
  const meter = cpuMeter(stackCpuGroups(() => stack.api?.pid, () => stack.workers.map((w) => w.pid)));
  let renewFailures = 0;
  let renewError: string | undefined;
  const renewal = setInterval(() => {
    client.renewToken().catch((err: Error) => {
      renewFailures += 1;
      renewError ??= err.message;
    });
  }, TOKEN_RENEW_MS);
  let load: OpenLoopResult;
  try {
    load = await openLoop({
      kinds: client.kinds('soak'),
      rate,
      seconds: params.soakSeconds,
      maxInFlight: params.soakMaxInFlight,
      drainMs: REQUEST_TIMEOUT_MS + 5_000,
      onProgress: (p) =>
        ctx.log(`  soak +${Math.round(p.elapsedSeconds)} s: ${p.sent} sent, ${p.failed} failed, ${p.dropped} fell behind, ${p.inFlight} in flight`),
    });
  } finally {
    clearInterval(renewal);
  }
  const series = sampler.stop();
  const cpu = meter.stop();

  const check = await checkRuns(scratch.dbUrl, client.workflowId, client.started);
  const pgAfter = await databaseBytes(scratch.dbUrl);
  const temporalAfter = temporalFile ? sqliteBytes(temporalFile) : Number.NaN;

  const kindText = Object.entries(load.kinds)
    .map(([name, k]) => `${name} ${k.ok}/${k.sent} ok (p50 ${round(k.latencyMs.p50)} / p99 ${round(k.latencyMs.p99)} ms)${k.dropped ? `, ${k.dropped} fell behind` : ''}`)
    .join('; ');
  const cpuText = Object.entries(cpu)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  ctx.log(`  soak: ${load.sent} sent in ${round(load.seconds)} s (${round(load.achievedRate)} req/s, target ${round(rate)}); ${kindText}; CPU % of one core: ${cpuText}`);

  const ceilingText =
    ceiling === null ? `rate fixed at ${round(rate)} req/s (--soak-rate)` : `${round(params.soakLoadFraction * 100)}% of the mix ceiling ${round(ceiling)} req/s`;
  const achievedRatio = load.achievedRate / rate;
  ctx.addRow({
    id: 'soak_rate',
    path: `Soak: mixed load for ${round(params.soakSeconds / 60, 1)} min, achieved request rate (req/s)`,
    baseline: { label: `target: ${ceilingText}`, value: round(rate), unit: 'req/s' },
    ours: { value: round(load.achievedRate), unit: 'req/s' },
    ratio: round(achievedRatio, 3),
    goal: '>= 0.95x of the target',
    met: achievedRatio >= 0.95,
    notes: `mix by weight ${Object.entries(MIX).map(([k, v]) => `${k} ${v}`).join(', ')}; ${kindText}; peak in flight ${load.maxInFlight} (bound ${params.soakMaxInFlight}); CPU % of one core: ${cpuText}`,
    details: { ceiling, ceilingConcurrency: params.soakCeilingConcurrency, ceilingSeconds: params.soakCeilingSeconds, rate, load, cpu },
  });

  const errors = load.failed + load.dropped + ceilingFailed + renewFailures;
  const firstErrors = [
    ...Object.entries(load.kinds).flatMap(([name, k]) => k.errors.map((e) => `${name}: ${e}`)),
    ...(ceilingError ? [`ceiling: ${ceilingError}`] : []),
    ...(renewError ? [`token renewal: ${renewError}`] : []),
  ].slice(0, 6);
  ctx.addRow({
    id: 'soak_errors',
    path: 'Soak: requests failed, refused or dropped (fell behind), ceiling burst included (count)',
    baseline: { label: '-', value: null, unit: 'errors' },
    ours: { value: errors, unit: 'errors' },
    ratio: null,
    goal: '0 (absolute)',
    met: errors === 0,
    notes:
      `${load.failed} failed answers (${load.unsettled} still unanswered after the drain), ${load.dropped} fell behind, ` +
      `${ceilingFailed} failed in the ceiling burst, ${renewFailures} token renewals failed` +
      (firstErrors.length ? `; first: ${firstErrors.join(' | ')}` : ''),
    details: { failed: load.failed, dropped: load.dropped, unsettled: load.unsettled, ceilingFailed, renewFailures, firstErrors },
  });

  const lostDup = check.lost + check.duplicated + check.unexpected + check.mismatched;
  ctx.addRow({
    id: 'soak_runs_lost_dup',
    path: 'Soak: runs lost, duplicated, unexpected or mismatched in PostgreSQL (count)',
    baseline: { label: '-', value: null, unit: 'runs' },
    ours: { value: lostDup, unit: 'runs' },
    ratio: null,
    goal: '0 (absolute)',
    met: lostDup === 0 && check.stillOpen === 0,
    notes:
      `${client.started.size} runs started (${[...client.started.values()].filter((s) => s.kind === 'webhook').length} by webhook), ` +
      `${check.acknowledged} acknowledged, ${check.completedOnce} completed exactly once; lost ${check.lost}, duplicated ${check.duplicated}, ` +
      `unexpected ${check.unexpected}, mismatched ${check.mismatched}, unknown outcome ${check.unknownOutcome}, still open after ${SETTLE_MS / 1000} s ${check.stillOpen}; ` +
      `rows by trigger: ${Object.entries(check.byTrigger).map(([k, v]) => `${k} ${v}`).join(', ')}` +
      (check.examples.length ? `; e.g. ${check.examples.join(' | ')}` : ''),
    details: { ...check },
  });

  const trends: RssTrend[] = series.map((s) => rssTrend(s, FLAT_MB_PER_MINUTE));
  const finite = trends.filter((t) => Number.isFinite(t.slope));
  const worst = finite.reduce<RssTrend | null>((w, t) => (w === null || Math.abs(t.slope) > Math.abs(w.slope) ? t : w), null);
  ctx.addRow({
    id: 'soak_rss_slope',
    path: `Soak: RSS slope of the worst process, least squares after 10% warm-up (MB/min)`,
    baseline: { label: '-', value: null, unit: 'MB/min' },
    ours: { value: worst ? worst.slope : Number.NaN, unit: 'MB/min' },
    ratio: null,
    goal: `within ±${FLAT_MB_PER_MINUTE} MB/min for every process`,
    met: finite.length === trends.length && trends.length > 0 && trends.every((t) => t.flat),
    notes:
      trends
        .map((t) => {
          const processes =
            t.processesThroughout === null
              ? ''
              : `, ${t.processesFirst} -> ${t.processesLast} processes, slope of the ${t.processesThroughout} alive throughout`;
          return `${t.name} ${t.slope} MB/min (mean ${t.meanMb} MB, ${t.firstMb} -> ${t.lastMb}, max ${t.maxMb}${processes}, ${t.samples} samples)`;
        })
        .join('; ') +
      `; sampled every ${params.soakRssEverySeconds} s` +
      (missing.length ? `; not found: ${missing.join(', ')}` : '') +
      '; temporal, postgres and minio are shared with anything else using the dev services',
    // Samples as [minute, MB, processes], compact: a full soak has hundreds per process.
    details: { trends, series: series.map((s) => ({ name: s.name, samples: s.samples.map((p) => [round(p.minute, 3), round(p.mb, 1), p.processes]) })) },
  });

  const pgGrowth = growthPer1000Runs(pgBefore, pgAfter, check.soakRuns);
  ctx.addRow({
    id: 'soak_pg_growth_per_1000_runs',
    path: `Soak: scratch PostgreSQL database growth per 1,000 runs (MB)`,
    baseline: { label: '-', value: null, unit: 'MB' },
    ours: { value: round(pgGrowth, 3), unit: 'MB' },
    ratio: null,
    goal: 'report',
    met: Number.isFinite(pgGrowth),
    notes:
      `pg_database_size ${mb(pgBefore)} -> ${mb(pgAfter)} MB over ${check.soakRuns} soak runs; includes everything the mix writes ` +
      '(uploads, sessions, audit, webhook receipts), divided by the runs',
    details: { beforeBytes: pgBefore, afterBytes: pgAfter, runs: check.soakRuns },
  });

  const temporalGrowth = growthPer1000Runs(temporalBefore, temporalAfter, check.soakRuns);
  ctx.addRow({
    id: 'soak_temporal_growth_per_1000_runs',
    path: `Soak: Temporal dev server SQLite file growth per 1,000 runs (MB)`,
    baseline: { label: '-', value: null, unit: 'MB' },
    ours: { value: round(temporalGrowth, 3), unit: 'MB' },
    ratio: null,
    goal: 'report',
    met: Number.isFinite(temporalGrowth),
    notes: temporalFile
      ? `${temporalFile} (+ -wal, -shm) ${mb(temporalBefore)} -> ${mb(temporalAfter)} MB over ${check.soakRuns} soak runs; ` +
        'the file is the shared dev server\'s: executions of anyone else using it count too, and SQLite reuses freed pages before growing'
      : 'the Temporal dev server was not found with a --db-filename (in-memory?): nothing to measure',
    details: { file: temporalFile, beforeBytes: temporalBefore, afterBytes: temporalAfter, runs: check.soakRuns },
  });
}
