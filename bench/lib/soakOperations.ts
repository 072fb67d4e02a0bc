import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { call, type ApiSession } from './api';
import type { SoakKind } from './soakLoad';
import { sleep } from './stats';

/**
 * The operations of the soak's mixed load (bench/scenarios/soak.ts): the tenant's workflow and seed documents, and one
 * checked request per kind of the mix, with the bookkeeping of the runs they start.
 */

/** Weights of the mix (per request): cheap authenticated reads most often, runs (the expensive part) next. */
export const MIX = { me: 40, run: 25, webhook: 15, upload: 10, search: 10 } as const;
/** How long a run start or webhook waits for its run (the runs take ~0.1 s; more is a stuck run, reported). */
const WAIT_SECONDS = 30;
/** Client-side bound on every request: the wait plus margin. */
export const REQUEST_TIMEOUT_MS = (WAIT_SECONDS + 15) * 1000;
const SEED_TIMEOUT_MS = 90_000;
export const WORKFLOW_PARAMETER = 'marker';
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
export interface Started {
  kind: 'run' | 'webhook';
  phase: 'ceiling' | 'soak';
  runId: string | null;
}

interface Seed {
  id: string;
  query: string;
}

/** The tenant, its workflow and everything the requests need, with the bookkeeping of what was sent. */
export class SoakClient {
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
