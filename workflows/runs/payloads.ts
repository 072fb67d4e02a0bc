import { runActivities, type ExecEnv } from './execute';
import { groupWithin, jsonBytes } from './scheduler/spill';
import type { ValueRef } from '../../lib/runs/types';

/**
 * The payload budget of one run (RunOptions.payloadBudgetBytes; scheduler/spill.ts says why): sizes of inline
 * values, measured once each, and the store that moves them to object storage. Runs started before the budget carry
 * none and assemble their values as they always did, so their histories replay.
 */
export class PayloadBudget {
  /** Outputs are objects mostly, measured once while they live; strings are measured each time. */
  private readonly sizes = new WeakMap<object, number>();

  constructor(
    readonly bytes: number,
    private readonly env: ExecEnv,
  ) {}

  /** Serialized size of a value (outputs are read by pass after pass). */
  sizeOf(value: unknown): number {
    if (value === null || typeof value !== 'object') return jsonBytes(value);
    let size = this.sizes.get(value);
    if (size === undefined) {
      size = jsonBytes(value);
      this.sizes.set(value, size);
    }
    return size;
  }

  /**
   * Stores each value under its name (the object `<run>/<name>.json`) and answers their references, in order. At
   * most a budget's worth of values are sent in one workflow task. `bytes`: the value's size when the caller knows it.
   */
  async store(values: { name: string; value: unknown; bytes?: number }[]): Promise<ValueRef[]> {
    const sized = values.map((v, index) => ({ ...v, index, bytes: v.bytes ?? this.sizeOf(v.value) }));
    const refs: ValueRef[] = new Array(values.length);
    for (const group of groupWithin(sized, this.bytes)) {
      const stored = await Promise.all(
        group.map(({ name, value }) =>
          runActivities.runStoreValue({ organizationId: this.env.organizationId, runId: this.env.runId, name, value }),
        ),
      );
      group.forEach(({ index }, i) => (refs[index] = stored[i]!));
    }
    return refs;
  }
}
