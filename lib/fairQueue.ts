/**
 * Work waiting for a few shared slots (sandbox processes, file readers), served fairly across tenants instead of
 * first come first served. Each item carries a key (an organization id; '' for work of no organization). A free
 * slot goes to the key that holds the fewest slots at that moment, and among equals to the one served longest ago
 * (round robin); within a key, items keep their order. One key never holds more than `capPerKey` slots at once, even
 * when slots are free: with a cap of `slots - 1`, a tenant that floods the pool leaves one slot for everyone else, so
 * another tenant's item waits for at most one item of its own kind, not for the flood.
 */
export class FairQueue<T> {
  /** Keys with waiting items, in turn order: a key served moves to the back. */
  private readonly waiting = new Map<string, T[]>();
  /** Slots each key holds now (items taken and not yet released). */
  private readonly holding = new Map<string, number>();
  private count = 0;

  constructor(private readonly capPerKey: number) {
    if (!(capPerKey >= 1)) throw new Error('a fair queue lets each key hold at least one slot');
  }

  /** Items waiting, over every key. */
  get size(): number {
    return this.count;
  }

  push(key: string, item: T): void {
    const items = this.waiting.get(key);
    if (items) items.push(item);
    else this.waiting.set(key, [item]);
    this.count += 1;
  }

  /** Items of `key` waiting. */
  waitingFor(key: string): number {
    return this.waiting.get(key)?.length ?? 0;
  }

  /** Slots `key` holds now. */
  held(key: string): number {
    return this.holding.get(key) ?? 0;
  }

  /** Whether `take` would hand out an item now (some key with waiting items is under its cap). */
  hasEligible(): boolean {
    for (const key of this.waiting.keys()) if (this.held(key) < this.capPerKey) return true;
    return false;
  }

  /** The next item to start, counted as held by its key until `release(key)`; null when every waiting key is at its cap. */
  take(): { key: string; item: T } | null {
    let chosen: string | null = null;
    for (const key of this.waiting.keys()) {
      const held = this.held(key);
      if (held >= this.capPerKey) continue;
      if (chosen === null || held < this.held(chosen)) chosen = key;
    }
    if (chosen === null) return null;
    const items = this.waiting.get(chosen)!;
    const item = items.shift()!;
    this.waiting.delete(chosen);
    if (items.length) this.waiting.set(chosen, items); // to the back of the turn
    this.count -= 1;
    this.holding.set(chosen, this.held(chosen) + 1);
    return { key: chosen, item };
  }

  /** One slot of `key` is free again. */
  release(key: string): void {
    const held = this.held(key);
    if (held <= 1) this.holding.delete(key);
    else this.holding.set(key, held - 1);
  }

  /** Every waiting item, removed (to fail them all). */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.count = 0;
    return all;
  }
}
