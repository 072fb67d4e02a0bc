import jwt from 'jsonwebtoken';
import type { Config } from '../../lib/config';
import type { RssSeries } from './rss';

/**
 * MinIO's own account of its memory, from the Go runtime's gauges on its node metrics endpoint
 * (`/minio/v2/metrics/node`), sampled beside its RSS in the soak. RSS alone cannot tell a heap that keeps growing
 * (a leak, or a cache without a bound) from a runtime that holds pages freed after a burst: Go gives idle heap back
 * to the system minutes later, so a periodic job's allocations show in RSS as a step that lasts for a while.
 */

export interface MinioMemory {
  /** Bytes in spans with at least one object (live objects plus fragmentation). */
  heapInuse: number;
  /** Bytes of allocated heap objects. */
  heapAlloc: number;
  /** Heap bytes the runtime holds but no object uses, returned or not. */
  heapIdle: number;
  /** Idle heap bytes already given back to the operating system. */
  heapReleased: number;
  goroutines: number;
}

type MinioSettings = Pick<Config['minio'], 'endPoint' | 'port' | 'useSSL' | 'accessKey' | 'secretKey'>;

/**
 * The bearer token MinIO takes for its metrics (what `mc admin prometheus generate` prints): HS512 under the
 * secret key, the access key as subject, issuer `prometheus`.
 */
export function minioMetricsToken(settings: Pick<MinioSettings, 'accessKey' | 'secretKey'>, validSeconds: number): string {
  return jwt.sign({ sub: settings.accessKey, iss: 'prometheus' }, settings.secretKey, { algorithm: 'HS512', expiresIn: validSeconds });
}

/** The value of an unlabelled gauge in Prometheus' text format; NaN when absent. */
export function gaugeValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1).trim()) : Number.NaN;
}

export function parseMinioMemory(text: string): MinioMemory | null {
  const memory: MinioMemory = {
    heapInuse: gaugeValue(text, 'go_memstats_heap_inuse_bytes'),
    heapAlloc: gaugeValue(text, 'go_memstats_heap_alloc_bytes'),
    heapIdle: gaugeValue(text, 'go_memstats_heap_idle_bytes'),
    heapReleased: gaugeValue(text, 'go_memstats_heap_released_bytes'),
    goroutines: gaugeValue(text, 'go_goroutines'),
  };
  return Object.values(memory).every(Number.isFinite) ? memory : null;
}

export async function readMinioMemory(settings: MinioSettings, token: string): Promise<MinioMemory | null> {
  const url = `${settings.useSSL ? 'https' : 'http'}://${settings.endPoint}:${settings.port}/minio/v2/metrics/node`;
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
    return res.ok ? parseMinioMemory(await res.text()) : null;
  } catch {
    return null;
  }
}

const MB = 1024 * 1024;

/**
 * Samples MinIO's heap every `everyMs`, at most `maxSamples` times, as two series the soak fits like RSS: the heap
 * in use, and what the runtime holds without returning it (idle minus released). A failed read is left out.
 */
export function startMinioMemorySampler(settings: MinioSettings, everyMs: number, maxSamples: number) {
  const token = minioMetricsToken(settings, Math.ceil((everyMs * maxSamples) / 1000) + 600);
  const started = performance.now();
  const inuse: RssSeries = { name: 'minio Go heap in use', churns: false, samples: [] };
  const held: RssSeries = { name: 'minio Go heap idle, not returned', churns: false, samples: [] };
  let taken = 0;
  let failed = 0;
  const pending = new Set<Promise<void>>();
  const sample = () => {
    taken += 1;
    if (taken >= maxSamples) clearInterval(timer);
    const minute = (performance.now() - started) / 60_000;
    const read = readMinioMemory(settings, token).then((memory) => {
      if (!memory) {
        failed += 1;
        return;
      }
      inuse.samples.push({ minute, mb: memory.heapInuse / MB, processes: 1 });
      held.samples.push({ minute, mb: (memory.heapIdle - memory.heapReleased) / MB, processes: 1 });
    });
    pending.add(read);
    void read.finally(() => pending.delete(read));
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return {
    async stop(): Promise<{ series: RssSeries[]; failed: number }> {
      clearInterval(timer);
      await Promise.all(pending);
      const byMinute = (s: RssSeries) => s.samples.sort((a, b) => a.minute - b.minute);
      byMinute(inuse);
      byMinute(held);
      return { series: [inuse, held], failed };
    },
  };
}
