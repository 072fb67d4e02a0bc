import { withTemporalAbortSignal } from '../../lib/temporal';
import { checkHistory, checkNamespace, checkSearchAttributes, type SetupCheck } from '../../lib/temporalSetup';
import type { AppDeps } from '../../domain/deps';

export interface CheckStatus {
  ok: boolean;
  /** What is wrong: `unreachable`, or a configuration problem an operator must fix (it names what). */
  error?: string;
  kind?: 'configuration' | 'unreachable';
}

export interface ServiceStatus extends CheckStatus {
  latencyMs: number;
  /** Temporal: each thing a run start needs (docs/operating.md#readiness). */
  checks?: Record<string, CheckStatus>;
}

const CHECK_TIMEOUT_MS = 2000;

/**
 * `check` gets a signal aborted at the time limit, so a check that can be cancelled does not outlive it. /readyz is
 * public: an unreachable service says only "unreachable" (a driver's message names internal addresses); `onError`
 * logs the detail. A configuration problem says what it is: the namespace or search attribute to create.
 */
async function timed(
  check: (signal: AbortSignal) => Promise<Omit<ServiceStatus, 'latencyMs'> | void>,
  onError: (err: unknown) => void,
): Promise<ServiceStatus> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const status = await Promise.race([
      check(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`));
        }, CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ...status, latencyMs: Date.now() - started };
  } catch (err) {
    onError(err);
    return { ok: false, kind: 'unreachable', error: 'unreachable', latencyMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

const asStatus = (check: SetupCheck): CheckStatus => (check.ok ? { ok: true } : { ok: false, kind: check.kind, error: check.problem });

/**
 * "A run can start now": the frontend answers, the namespace exists, Loom's search attributes are registered and the
 * history service answers. The first failure stops the chain (a missing namespace has no attributes to list).
 */
async function temporalReadiness(deps: AppDeps, signal: AbortSignal): Promise<Omit<ServiceStatus, 'latencyMs'>> {
  const client = deps.temporal;
  const namespace = deps.config.temporal.namespace;
  return withTemporalAbortSignal(client, signal, async () => {
    await client.connection.ensureConnected();
    await client.connection.workflowService.getSystemInfo({});
    const checks: Record<string, CheckStatus> = { frontend: { ok: true } };
    checks.namespace = asStatus(await checkNamespace(client, namespace));
    if (checks.namespace.ok) {
      const [attributes, history] = await Promise.all([checkSearchAttributes(client, namespace), checkHistory(client, namespace)]);
      checks.searchAttributes = asStatus(attributes);
      checks.history = asStatus(history);
    }
    const failed = Object.values(checks).find((c) => !c.ok);
    return failed ? { ok: false, kind: failed.kind, error: failed.error, checks } : { ok: true, checks };
  });
}

export async function checkReadiness(deps: AppDeps): Promise<Record<'postgres' | 'temporal' | 'minio', ServiceStatus>> {
  const logAs = (service: string) => (err: unknown) => deps.logger.warn({ err, service }, 'readiness check failed');
  const [postgres, temporal, minio] = await Promise.all([
    timed(async () => void (await deps.db.raw('select 1')), logAs('postgres')),
    timed((signal) => temporalReadiness(deps, signal), logAs('temporal')),
    timed(async () => void (await deps.storage.bucketExists(deps.config.minio.bucket)), logAs('minio')),
  ]);
  return { postgres, temporal, minio };
}
