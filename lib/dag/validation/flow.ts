import { flowControlSchema, flowKeyExpressions, type FlowControl } from '../flowControl';
import type { Problem } from '../problems';
import { zodProblems } from '../nodeConfig';
import type { ValidationEnv } from './types';

/**
 * The `flow` block (lib/dag/flowControl.ts): its shape, its key expressions (CEL over `params` and `trigger`), and
 * the rules across its fields. Absent: no flow control.
 */
export function parseFlow(raw: unknown, path: string, env: ValidationEnv): { value: FlowControl | null; problems: Problem[] } {
  if (raw === undefined || raw === null) return { value: null, problems: [] };
  const parsed = flowControlSchema.safeParse(raw);
  if (!parsed.success) return { value: null, problems: zodProblems(parsed.error, path, flowControlSchema) };
  const flow = parsed.data;
  const problems: Problem[] = [];
  for (const [control, text] of Object.entries(flowKeyExpressions(flow))) {
    for (const problem of env.expressionProblems(text)) problems.push({ path: `${path}.${control}.key`, problem });
  }
  const concurrency = flow.concurrency;
  if (concurrency?.key_limit !== undefined) {
    if (concurrency.strategy !== 'round_robin') {
      problems.push({ path: `${path}.concurrency.key_limit`, problem: 'only with strategy round_robin (with the others, `limit` is per key already)' });
    } else if (concurrency.key_limit > concurrency.limit) {
      problems.push({ path: `${path}.concurrency.key_limit`, problem: `at most the limit (${concurrency.limit})` });
    }
  }
  if (concurrency?.strategy === 'round_robin' && !concurrency.key) {
    problems.push({ path: `${path}.concurrency.key`, problem: 'round_robin takes turns across keys: name the key' });
  }
  if (flow.debounce?.max_wait !== undefined && flow.debounce.mode !== 'last') {
    problems.push({ path: `${path}.debounce.max_wait`, problem: 'only with mode last (mode first never waits)' });
  }
  if (Object.keys(flow).length === 0) problems.push({ path, problem: 'name at least one control (concurrency, throttle, debounce, singleton, priority), or leave flow out' });
  return problems.length ? { value: null, problems } : { value: flow, problems: [] };
}
