import { parseDuration } from '../../duration';
import { EVENT_LOCAL, MAX_EVENT_LOOKBACK_MS, MAX_WAIT_MS } from '../waits';
import type { WaitConfig, WaitForEventConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { unwrapTemplate } from './conditions';
import { expressionReferenceProblems, templateReferenceProblems, type ReferenceScope } from './references';
import type { ValidationEnv } from './types';

/** Whether `until` is computed at run time (a `${...}` template) rather than a fixed time. */
export const isComputedTime = (until: string): boolean => until.includes('${');

/**
 * A wait node: one of `duration` (a duration of at most 366 days) or `until` (an ISO 8601 time, or a template whose
 * names are checked like any template's; secrets are refused there).
 */
export function waitProblems(scope: ReferenceScope, env: ValidationEnv, nodeId: string, config: WaitConfig, base: string): Problem[] {
  const { duration, until } = config;
  if ((duration === undefined) === (until === undefined)) {
    return [{ path: `${base}.config`, problem: 'give one of duration (e.g. "15m") or until (a time, or a ${...} template giving one)' }];
  }
  if (duration !== undefined) return durationProblem(duration, `${base}.config.duration`, 0, MAX_WAIT_MS, 'at most 366d');
  const path = `${base}.config.until`;
  if (isComputedTime(until!)) {
    return [...templateReferenceProblems(scope, env, nodeId, until, path, new Set()), ...misplacedSecretReferenceProblems(until, path, 'wait times')];
  }
  return Number.isNaN(Date.parse(until!)) || !/^\d{4}-\d{2}-\d{2}/.test(until!)
    ? [{ path, problem: 'an ISO 8601 time such as 2026-12-01T09:00:00Z, or a ${...} template giving one' }]
    : [];
}

function durationProblem(text: string, path: string, minMs: number, maxMs: number, bounds: string): Problem[] {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (err) {
    return [{ path, problem: (err as Error).message }];
  }
  return ms < minMs || ms > maxMs ? [{ path, problem: bounds }] : [];
}

/**
 * A wait_for_event node: a timeout from 1s to 366d, a look-back of at most 7d, and a match expression that is valid
 * CEL whose names are checked like a template's, with `event` bound (secrets are refused there).
 */
export function waitForEventProblems(scope: ReferenceScope, env: ValidationEnv, nodeId: string, config: WaitForEventConfig, base: string): Problem[] {
  const problems = [
    ...durationProblem(config.timeout, `${base}.config.timeout`, 1000, MAX_WAIT_MS, 'from 1s to 366d'),
    ...durationProblem(config.lookback, `${base}.config.lookback`, 0, MAX_EVENT_LOOKBACK_MS, 'at most 7d'),
  ];
  if (config.match !== undefined) {
    const path = `${base}.config.match`;
    const expression = unwrapTemplate(config.match);
    for (const problem of env.expressionProblems(expression)) problems.push({ path, problem });
    problems.push(
      ...expressionReferenceProblems(scope, env, nodeId, expression, path, new Set([EVENT_LOCAL])),
      ...misplacedSecretReferenceProblems(config.match, path, 'event matches'),
    );
  }
  return problems;
}
