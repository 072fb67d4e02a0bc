import { Context } from '@temporalio/activity';

/**
 * The worker's memory for stored values being read, shared by all its activities. Each activity may read up to
 * STORED_VALUE_LIMITS (values.ts: 64 MiB expanded), but the worker runs up to 100 activities at once: a run of 100
 * parallel nodes each reading its limit held gigabytes of text and copies, past the process's heap, and the worker
 * died with every tenant's activities in it. An activity's reads now take their bytes from this budget first and
 * give them back when the activity ends; a read that does not fit waits, in arrival order. The oldest activity
 * holding any is always granted what it asks (it then finishes and gives everything back), so activities holding
 * part each never wait on one another for ever; the worker holds at most the budget plus one activity's limit.
 */
export class ValueMemory {
  private heldBytes = 0;
  private nextLease = 0;
  /** Leases holding bytes, oldest first (by creation: activity start order). */
  private readonly holders = new Set<ValueLease>();
  private readonly waiting: { lease: ValueLease; bytes: number; grant: () => void }[] = [];

  constructor(readonly capacityBytes: number) {}

  get held(): number {
    return this.heldBytes;
  }

  lease(): ValueLease {
    return new ValueLease(this, this.nextLease++);
  }

  /** Resolves once `bytes` are granted to `lease`. */
  acquire(lease: ValueLease, bytes: number): Promise<void> {
    if (this.waiting.length === 0 && this.grantable(lease, bytes)) {
      this.grant(lease, bytes);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.waiting.push({ lease, bytes, grant: resolve });
      this.grantWaiting(); // the oldest holder may be the one asking
    });
  }

  /** Everything `lease` held (it is closing). */
  release(lease: ValueLease, bytes: number): void {
    this.heldBytes -= bytes;
    this.holders.delete(lease);
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
      const oldest = this.oldestHolder();
      const index = this.waiting.length > 0 && this.grantable(this.waiting[0]!.lease, this.waiting[0]!.bytes) ? 0 : this.waiting.findIndex((w) => w.lease === oldest);
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
  ) {}

  get held(): number {
    return this.heldBytes;
  }

  /** Waits until the worker's budget grants `bytes` to this activity. */
  take(bytes: number): Promise<void> {
    return this.closed ? Promise.resolve() : this.memory.acquire(this, bytes);
  }

  /** ValueMemory's grant; one that comes after the activity ended (it was cancelled while waiting) goes straight back. */
  granted(bytes: number): void {
    this.heldBytes += bytes;
    if (this.closed) this.close();
  }

  close(): void {
    this.closed = true;
    const bytes = this.heldBytes;
    this.heldBytes = 0;
    if (bytes > 0) this.memory.release(this, bytes);
  }
}

const leases = new WeakMap<Context, ValueLease>();

/** Runs `execute` as one activity's holder of `memory` (the worker's activity interceptor). */
export async function withValueLease<T>(memory: ValueMemory, context: Context, execute: () => Promise<T>): Promise<T> {
  const lease = memory.lease();
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
