import { parseDuration } from '../duration';
import { DEFAULT_PRIORITY, MAX_FLOW_KEY_LENGTH, needsGate, type FlowControl } from '../dag/flowControl';
import { flowGateWorkflowId, type FlowSettings, type RunFlow } from './flowGate';

/**
 * From a workflow's flow control and a run's evaluated keys to what the run carries (RunInput.flow, .priority).
 * Pure: the API and the trigger activities evaluate the keys (domain/runs/flow.ts); this builds the rest.
 */

/** The evaluated group of each control a run is in; absent: the workflow's one group. Stored on the run row. */
export interface FlowKeys {
  concurrency?: string;
  throttle?: string;
  debounce?: string;
  singleton?: string;
}

export class FlowKeyError extends Error {}

/** A key expression's value as a group name: strings, numbers and booleans; anything else is a mistake. */
export function flowKeyValue(control: string, value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') text = String(value);
  else throw new FlowKeyError(`the ${control} key is ${value === null ? 'null' : typeof value}; it must be a string, number or boolean`);
  if (text.length > MAX_FLOW_KEY_LENGTH) throw new FlowKeyError(`the ${control} key is ${text.length} characters long; at most ${MAX_FLOW_KEY_LENGTH}`);
  return text;
}

export function flowSettings(flow: FlowControl): FlowSettings {
  const settings: FlowSettings = {};
  if (flow.concurrency) {
    const { limit, strategy, key_limit: keyLimit } = flow.concurrency;
    settings.concurrency = { limit, strategy, ...(keyLimit !== undefined ? { keyLimit } : {}) };
  }
  if (flow.throttle) settings.throttle = { limit: flow.throttle.limit, periodMs: parseDuration(flow.throttle.period) };
  if (flow.debounce) {
    const { period, mode, max_wait: maxWait } = flow.debounce;
    settings.debounce = { periodMs: parseDuration(period), mode, ...(maxWait !== undefined ? { maxWaitMs: parseDuration(maxWait) } : {}) };
  }
  return settings;
}

/** The run's priority: the start's own, else the trigger's, else the workflow's default, else 3. */
export function runPriority(flow: FlowControl | undefined, ...requested: (number | null | undefined)[]): number {
  for (const p of requested) if (typeof p === 'number') return p;
  return flow?.priority ?? DEFAULT_PRIORITY;
}

/** What a run of a workflow with flow control carries to its gate; undefined when no control needs the gate. */
export function runFlowOf(
  runId: string,
  workflowId: string,
  flow: FlowControl | undefined,
  keys: FlowKeys | null | undefined,
  priority: number,
  createdAt: number,
): RunFlow | undefined {
  if (!flow || !needsGate(flow)) return undefined;
  return {
    gateId: flowGateWorkflowId(workflowId),
    ticket: {
      runId,
      priority,
      createdAt,
      keys: { concurrency: keys?.concurrency ?? '', throttle: keys?.throttle ?? '', debounce: keys?.debounce ?? '' },
      settings: flowSettings(flow),
    },
  };
}
