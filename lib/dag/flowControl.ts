import { z } from 'zod';
import { durationBetween } from './durationText';

/**
 * Flow control of a workflow's runs (docs/runs.md#flow-control): how many run at once, how many start per period,
 * which of a burst runs, which start returns an open run instead, and in what order queued runs start. Declared in
 * the definition (`flow`), checked at save; enforced by the workflow's flow gate (workflows/flow/gate.ts, the
 * decisions in lib/runs/flowGate.ts) before a run's first node, so a queued run is `pending` and costs no worker slot.
 *
 * Each control may group runs by a key: a CEL expression over `params` and `trigger` whose value (a string, number or
 * boolean) names the group. Without a key, all the workflow's runs are one group.
 */

export const CONCURRENCY_STRATEGIES = ['queue', 'cancel_oldest', 'drop_newest', 'round_robin'] as const;
export type ConcurrencyStrategy = (typeof CONCURRENCY_STRATEGIES)[number];
export const DEBOUNCE_MODES = ['last', 'first'] as const;

/** Lowest and highest run priority: Temporal's default range (1 goes first; unset means 3). */
export const PRIORITY_MIN = 1;
export const PRIORITY_MAX = 5;
export const DEFAULT_PRIORITY = 3;

/** Longest key value once evaluated: a longer one fails the start (FLOW_KEY_INVALID). */
export const MAX_FLOW_KEY_LENGTH = 256;

const flowKey = z
  .string()
  .min(1)
  .max(1000)
  .describe('CEL over `params` and `trigger` naming the group (a string, number or boolean); without it, one group');

/** A run's priority: 1 (first) to 5 (last). */
export const runPrioritySchema = z.number().int().min(PRIORITY_MIN).max(PRIORITY_MAX);

export const concurrencyControlSchema = z
  .strictObject({
    limit: z.number().int().min(1).max(1000).describe('runs at once: per key, or (round_robin) across all keys'),
    key: flowKey.optional(),
    strategy: z
      .enum(CONCURRENCY_STRATEGIES)
      .optional()
      .default('queue')
      .describe(
        'when full: queue (in priority, then arrival order), cancel_oldest (the oldest running run of the key is ' +
          'cancelled; the new one starts once it has ended), drop_newest (the new run is cancelled, FLOW_DROPPED), ' +
          'round_robin (`limit` across keys, queued runs started in turn across keys)',
      ),
    key_limit: z.number().int().min(1).max(1000).optional().describe('round_robin only: runs at once per key'),
  })
  .meta({ id: 'ConcurrencyControl', description: 'At most `limit` runs at once, optionally per key' });

export const throttleControlSchema = z
  .strictObject({
    limit: z.number().int().min(1).max(10_000),
    period: durationBetween(1000, 86_400_000, '1s to 24h'),
    key: flowKey.optional(),
  })
  .meta({ id: 'ThrottleControl', description: 'At most `limit` runs start per `period` (sliding), per key; the rest wait their turn' });

export const debounceControlSchema = z
  .strictObject({
    period: durationBetween(1000, 86_400_000, '1s to 24h'),
    key: flowKey.optional(),
    mode: z
      .enum(DEBOUNCE_MODES)
      .optional()
      .default('last')
      .describe('last: a run waits `period` and is replaced by a newer one of its key meanwhile; first: the first runs, later ones within `period` are dropped'),
    max_wait: durationBetween(1000, 7 * 86_400_000, '1s to 7d')
      .optional()
      .describe('last only: the waiting run starts at most this long after the first of its burst, however often it is replaced'),
  })
  .meta({ id: 'DebounceControl', description: 'Of a burst of runs with one key, only the last (or the first) runs, with its parameters' });

export const singletonControlSchema = z
  .strictObject({ key: flowKey.optional() })
  .meta({ id: 'SingletonControl', description: 'A start whose key matches an open run of the workflow returns that run instead of a new one' });

export const flowControlSchema = z
  .strictObject({
    concurrency: concurrencyControlSchema.optional(),
    throttle: throttleControlSchema.optional(),
    debounce: debounceControlSchema.optional(),
    singleton: singletonControlSchema.optional(),
    priority: runPrioritySchema
      .optional()
      .describe('default priority of the runs (1 first, 5 last; 3 when unset); a start or a trigger may set its own'),
  })
  .meta({ id: 'FlowControl', description: "Flow control of the workflow's runs (docs/runs.md#flow-control)" });

export type FlowControl = z.infer<typeof flowControlSchema>;

/** The key expressions of a flow, by control, for validation and evaluation. */
export function flowKeyExpressions(flow: FlowControl): Partial<Record<'concurrency' | 'throttle' | 'debounce' | 'singleton', string>> {
  const out: Partial<Record<'concurrency' | 'throttle' | 'debounce' | 'singleton', string>> = {};
  if (flow.concurrency?.key) out.concurrency = flow.concurrency.key;
  if (flow.throttle?.key) out.throttle = flow.throttle.key;
  if (flow.debounce?.key) out.debounce = flow.debounce.key;
  if (flow.singleton?.key) out.singleton = flow.singleton.key;
  return out;
}

/** Whether runs of this flow pass the gate (singleton and priority alone need none). */
export function needsGate(flow: FlowControl | undefined): boolean {
  return Boolean(flow && (flow.concurrency || flow.throttle || flow.debounce));
}
