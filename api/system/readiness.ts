import { withTemporalAbortSignal } from '../../lib/temporal';
import type { AppDeps } from '../../domain/deps';

export interface ServiceStatus {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

const CHECK_TIMEOUT_MS = 2000;

/**
 * `check` gets a signal aborted at the time limit, so a check that can be cancelled does not outlive it. /readyz is
 * public: a failure says only "unreachable" (a driver's message names internal addresses); `onError` logs the detail.
 */
async function timed(check: (signal: AbortSignal) => Promise<unknown>, onError: (err: unknown) => void): Promise<ServiceStatus> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(controller.signal),
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`));
        }, CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    onError(err);
    return { ok: false, latencyMs: Date.now() - started, error: 'unreachable' };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkReadiness(deps: AppDeps): Promise<Record<'postgres' | 'temporal' | 'minio', ServiceStatus>> {
  const logAs = (service: string) => (err: unknown) => deps.logger.warn({ err, service }, 'readiness check failed');
  const [postgres, temporal, minio] = await Promise.all([
    timed(() => deps.db.raw('select 1'), logAs('postgres')),
    timed((signal) =>
      withTemporalAbortSignal(deps.temporal, signal, async () => {
        await deps.temporal.connection.ensureConnected();
        await deps.temporal.workflowService.getSystemInfo({});
      }),
      logAs('temporal'),
    ),
    timed(() => deps.storage.bucketExists(deps.config.minio.bucket), logAs('minio')),
  ]);
  return { postgres, temporal, minio };
}
