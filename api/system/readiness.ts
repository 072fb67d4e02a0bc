import type { AppDeps } from '../domain';

export interface ServiceStatus {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

const CHECK_TIMEOUT_MS = 2000;

async function timed(check: () => Promise<unknown>): Promise<ServiceStatus> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, latencyMs: Date.now() - started, error: (err as Error).message || 'unreachable' };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkReadiness(deps: AppDeps): Promise<Record<'postgres' | 'temporal' | 'minio', ServiceStatus>> {
  const [postgres, temporal, minio] = await Promise.all([
    timed(() => deps.db.raw('select 1')),
    timed(async () => {
      await deps.temporal.connection.ensureConnected();
      await deps.temporal.workflowService.getSystemInfo({});
    }),
    timed(() => deps.storage.bucketExists(deps.config.minio.bucket)),
  ]);
  return { postgres, temporal, minio };
}
