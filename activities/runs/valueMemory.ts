import { Context } from '@temporalio/activity';

/**
 * The worker's memory for stored values being read, shared by all its activities. Each activity may read up to
 * STORED_VALUE_LIMITS (values.ts: 64 MiB expanded), but the worker runs up to 100 activities at once: a run of 100
 * parallel nodes each reading its limit held gigabytes of text and copies, past the process's heap, and the worker
 * died with every tenant's activities in it. An activity's reads take their bytes from this budget first and give
 * them back when the activity ends. Tool activities, the ones that run by the hundred and heartbeat while they
 * wait, wait in arrival order when a read does not fit, and stop waiting when cancelled; other activities (short
 * bookkeeping, and local ones whose time limit is the workflow task's) are counted but never wait. The oldest
 * activity holding any is always served, so activities each holding part and asking for more never wait on each
 * other.
 */
export class ValueMemory {
  private heldBytes = 0;
  private nextLease = 0;
  /** Leases holding bytes (by creation order: activity start order). */
  private readonly holders = new Set<ValueLease>();
  private readonly waiting: { lease: ValueLease; bytes: number; grant: () => void; refuse: (reason: unknown) => void }[] = [];

  constructor(readonly capacityBytes: number) {}

  get held(): number {
    return this.heldBytes;
  }

  lease(options: { waits: boolean; signal?: AbortSignal } = { waits: true }): ValueLease {
    return new ValueLease(this, this.nextLease++, options);
  }

  /** Resolves once `bytes` are granted to `lease`; rejects when `signal` aborts first. */
  acquire(lease: ValueLease, bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.waiting.length === 0 && this.grantable(lease, bytes)) {
      this.grant(lease, bytes);
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.drop((entry) => entry === waiter, signal?.reason);
      };
      const waiter = {
        lease,
        bytes,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        refuse: (reason: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.grantWaiting(); // the oldest holder may be the one asking
    });
  }

  /** Counts `bytes` for `lease` at once, whatever is held (activities that must not wait). */
  force(lease: ValueLease, bytes: number): void {
    this.grant(lease, bytes);
  }

  /** Everything `lease` held (it is closing): its requests still waiting are refused. */
  release(lease: ValueLease, bytes: number): void {
    this.heldBytes -= bytes;
    this.holders.delete(lease);
    // Nearly always nothing of this lease waits: the error (a stack trace captured) is made only when something does.
    if (this.waiting.some((entry) => entry.lease === lease)) this.drop((entry) => entry.lease === lease, new Error('the activity ended'));
    else this.grantWaiting();
  }

  private drop(which: (entry: ValueMemory['waiting'][number]) => boolean, reason: unknown): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (which(this.waiting[i]!)) this.waiting.splice(i, 1)[0]!.refuse(reason);
    }
    this.grantWaiting();
  }

  private grantable(lease: ValueLease, bytes: number): boolean {
    return this.heldBytes === 0 || this.heldBytes + bytes <= this.capacityBytes || this.oldestHolder() === lease;
  }

  private oldestHolder(): ValueLease | undefined {
    let oldest: ValueLease | undefined;
    for (const holder of this.holders) if (!oldest || holder.order < oldest.order) oldest = holder;
    return oldest;
  }

  private grant(lease: ValueLease, bytes: number): void {
    this.heldBytes += bytes;
    this.holders.add(lease);
    lease.granted(bytes);
  }

  private grantWaiting(): void {
    for (;;) {
      const head = this.waiting[0];
      const oldest = this.oldestHolder();
      const index = head && this.grantable(head.lease, head.bytes) ? 0 : this.waiting.findIndex((w) => w.lease === oldest);
      if (index < 0) return;
      const [next] = this.waiting.splice(index, 1);
      this.grant(next!.lease, next!.bytes);
      next!.grant();
    }
  }
}

/** What one activity holds of the worker's ValueMemory; closed when the activity ends. */
export class ValueLease {
  private heldBytes = 0;
  private closed = false;

  constructor(
    private readonly memory: ValueMemory,
    /** Creation order: the oldest holder is always served. */
    readonly order: number,
    private readonly options: { waits: boolean; signal?: AbortSignal },
  ) {}

  get held(): number {
    return this.heldBytes;
  }

  /** Takes `bytes` from the worker's budget: waits for them (tool activities) or counts them at once. */
  take(bytes: number): Promise<void> {
    if (this.closed || bytes <= 0) return Promise.resolve();
    if (!this.options.waits) {
      this.memory.force(this, bytes);
      return Promise.resolve();
    }
    return this.memory.acquire(this, bytes, this.options.signal);
  }

  /** ValueMemory's grant. */
  granted(bytes: number): void {
    this.heldBytes += bytes;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const bytes = this.heldBytes;
    this.heldBytes = 0;
    this.memory.release(this, bytes);
  }
}

const leases = new WeakMap<Context, ValueLease>();

/**
 * Runs `execute` as one activity's holder of `memory` (the worker's activity interceptor). `waits`: the activity's
 * reads wait for room (tool activities); otherwise they are counted without waiting.
 */
export async function withValueLease<T>(memory: ValueMemory, context: Context, waits: boolean, execute: () => Promise<T>): Promise<T> {
  const lease = memory.lease({ waits, signal: context.cancellationSignal });
  leases.set(context, lease);
  try {
    return await execute();
  } finally {
    lease.close();
  }
}

/** The running activity's lease, or null outside an activity (the API, scripts, tests reading values directly). */
export function activityLease(): ValueLease | null {
  try {
    return leases.get(Context.current()) ?? null;
  } catch {
    return null;
  }
}
