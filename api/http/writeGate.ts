import { AppError } from '../../lib/errors';

/**
 * A per-tenant cap on the write requests an API process runs at once (SERVICE_WRITE_CONCURRENCY_PER_ORGANIZATION).
 * Every tenant shares one database pool (DATABASE_POOL_MAX); a write holds a connection (often a transaction and
 * row locks) for most of its life, so without a cap one organization's burst of writes takes every connection and
 * another organization's reads wait for the pool and fail after its acquire timeout. With the cap, one tenant
 * holds at most `concurrency` writes (each one connection at a time: no code path takes a second connection inside
 * a transaction, docs/conventions.md), further writes wait in that tenant's own queue in arrival order, and past the
 * queue's length or wait they answer 429 RATE_LIMITED with Retry-After: only the bursting tenant waits or is refused.
 * Per process: N API processes give a tenant N times the cap, which the pool size of each process already bounds.
 */
export interface WriteGate {
  /** Runs `work` within the tenant's share; throws the 429 when the tenant's queue is full or its wait runs out. */
  run<T>(tenant: string, work: () => Promise<T>): Promise<T>;
}

interface Lane {
  active: number;
  waiting: Array<{ grant: () => void }>;
}

export function createWriteGate(options: { concurrency: number; queue: number; queueTimeoutMs: number }): WriteGate {
  const lanes = new Map<string, Lane>();
  const retryAfter = String(Math.max(1, Math.ceil(options.queueTimeoutMs / 1000)));
  const refused = (why: string): AppError =>
    new AppError('RATE_LIMITED', `too many concurrent writes for this organization (${why}); retry in ${retryAfter} s`, undefined, {
      'Retry-After': retryAfter,
    });

  function release(tenant: string, lane: Lane): void {
    const next = lane.waiting.shift();
    // The slot passes straight to the next waiter, so a late arrival cannot overtake the queue.
    if (next) next.grant();
    else if (--lane.active === 0) lanes.delete(tenant);
  }

  async function acquire(tenant: string): Promise<Lane> {
    let lane = lanes.get(tenant);
    if (!lane) lanes.set(tenant, (lane = { active: 0, waiting: [] }));
    if (lane.active < options.concurrency) {
      lane.active++;
      return lane;
    }
    if (lane.waiting.length >= options.queue) throw refused('queue full');
    const current = lane;
    await new Promise<void>((resolve, reject) => {
      const entry = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const at = current.waiting.indexOf(entry);
        if (at >= 0) current.waiting.splice(at, 1);
        reject(refused('waited too long'));
      }, options.queueTimeoutMs);
      current.waiting.push(entry);
    });
    return current;
  }

  return {
    async run(tenant, work) {
      const lane = await acquire(tenant);
      try {
        return await work();
      } finally {
        release(tenant, lane);
      }
    },
  };
}
