import { ExpressionError } from '../errors';
import {
  DEFAULT_EXPRESSION_LIMITS,
  DEFAULT_JSONATA_LIMITS,
  REGEX_LIMITS,
  type ExpressionLimits,
  type JsonataLimits,
} from '../limits';
import { hasTemplates, renderTemplates as renderHere } from '../templates';
import { createSandboxPool, type SandboxPool } from './pool';
import { contextFor, templateExpressions } from './prune';
import type { RegexMatch } from './regex';

/**
 * The one door to user expressions for both processes: CEL conditions and `${...}` templates (worker), JSONata
 * (json_transform tool, content extraction) and regular expressions over data (content extraction). Each runs in a
 * warm sandbox process under a deadline that really stops it (pool.ts), with the engines' own limits (length,
 * nesting, AST size, stack, sequence length, heap) and RE2 for regexes. Failures are ExpressionErrors with a code
 * (EXPRESSION_INVALID, EXPRESSION_FAILED, EXPRESSION_LIMIT, EXPRESSION_TIMEOUT, EXPRESSION_TOO_COMPLEX,
 * INVALID_REGEX) and a message that never carries an engine's internals. docs/workflows.md#the-expression-sandbox describes the limits.
 *
 * Two lanes, so a slow JSONata transform never holds up the conditions of other runs: CEL evaluations, and data
 * tasks (JSONata, regex). Sandbox processes start on first use; a process that never evaluates an expression starts
 * none.
 */
const CEL_PROCESSES = 2;
const DATA_PROCESSES = 2;

let celLane: SandboxPool | null = null;
let dataLane: SandboxPool | null = null;
const cel = (): SandboxPool => (celLane ??= createSandboxPool(CEL_PROCESSES));
const data = (): SandboxPool => (dataLane ??= createSandboxPool(DATA_PROCESSES));

function celDeadline(limits: Partial<ExpressionLimits>): number {
  return limits.timeoutMs ?? DEFAULT_EXPRESSION_LIMITS.timeoutMs;
}

/** A CEL expression over a JSON context (see lib/expressions/cel.ts for its checks and value conversions). */
export async function evaluateCel(
  text: string,
  context: Record<string, unknown>,
  limits: Partial<ExpressionLimits> = {},
): Promise<unknown> {
  const task = { op: 'cel' as const, text, context: contextFor([text], context), ...(Object.keys(limits).length ? { limits } : {}) };
  return cel().run(task, celDeadline(limits));
}

/** Every `${...}` template in a JSON value rendered; a value without templates is copied here, with no trip to the sandbox. */
export async function renderTemplates(
  value: unknown,
  context: Record<string, unknown>,
  limits: Partial<ExpressionLimits> = {},
): Promise<unknown> {
  if (!hasTemplates(value)) return renderHere(value, context, limits);
  const expressions = templateExpressions(value);
  const task = {
    op: 'render' as const,
    value,
    context: expressions ? contextFor(expressions, context) : context,
    ...(Object.keys(limits).length ? { limits } : {}),
  };
  // One deadline per expression the value holds (up to five), as if each were evaluated on its own.
  return cel().run(task, celDeadline(limits) * Math.min(5, Math.max(1, expressions?.length ?? 1)));
}

/** A JSONata expression over data, with `$name` bindings. */
export async function evaluateJsonata(
  expression: string,
  input: unknown,
  bindings: Record<string, unknown> = {},
  limits: JsonataLimits = DEFAULT_JSONATA_LIMITS,
): Promise<unknown> {
  // A little grace past JSONata's own deadline: a runaway between its checks is stopped, an ordinary timeout is
  // reported by JSONata itself and the process stays warm.
  return data().run({ op: 'jsonata', expression, data: input, bindings, limits }, limits.timeoutMs + 250);
}

/** Matches of a user regular expression (RE2) over a text; flags among i, m, s, u. */
export async function regexMatches(
  text: string,
  pattern: string,
  flags: string,
  maxMatches: number,
): Promise<{ matches: RegexMatch[]; truncated: boolean }> {
  if (!/^[imsu]*$/.test(flags)) throw new ExpressionError('INVALID_REGEX', 'regular expression flags are among i, m, s and u');
  const result = await data().run({ op: 'regex', text, pattern, flags, maxMatches }, REGEX_LIMITS.timeoutMs);
  return result as { matches: RegexMatch[]; truncated: boolean };
}

/** Ends the sandbox processes (tests, shutdown); the next evaluation starts fresh ones. */
export async function closeSandbox(): Promise<void> {
  const lanes = [celLane, dataLane];
  celLane = null;
  dataLane = null;
  await Promise.all(lanes.map((lane) => lane?.close()));
}

export { ExpressionError } from '../errors';
export { REGEX_ENGINE, type RegexMatch } from './regex';
