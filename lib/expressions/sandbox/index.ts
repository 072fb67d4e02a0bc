import { ExpressionError } from '../errors';
import {
  DEFAULT_EXPRESSION_LIMITS,
  DEFAULT_JSONATA_LIMITS,
  REGEX_LIMITS,
  type ExpressionLimits,
  type JsonataLimits,
} from '../limits';
import { hasTemplates, renderTemplates as renderHere } from '../templates';
import type { BulkJob, BulkReply } from './bulk';
import { readBulkResult, removeBulkFolder, withBulkFiles } from './bulkFiles';
import { createSandboxPool, logToStderr, type SandboxPool } from './pool';
import { ResultInFile, type SandboxTask } from './protocol';
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
 * tasks (JSONata, regex, the parsing tools' large inputs). Sandbox processes start on first use; a process that never
 * evaluates an expression starts none, and an idle one exits after a minute.
 *
 * Each call names the organization it evaluates for (`tenant`): a lane serves organizations in turn and lets one hold
 * at most all but one of its processes (pool.ts). Three per lane keeps what one organization had before (two at once)
 * and adds the one that the others can always reach: another organization's evaluation waits for no deadline of the
 * first one's, however many of its tasks queue.
 */
const CEL_PROCESSES = 3;
const DATA_PROCESSES = 3;

let celLane: SandboxPool | null = null;
let dataLane: SandboxPool | null = null;
/** Where the lanes' processes report (their stderr, said by childStderr.ts): stderr until the process says. */
let sandboxLog: ((line: string) => void) | undefined;
const log = (line: string): void => (sandboxLog ?? logToStderr)(line);

/** The lanes are the process's, so is where they report: its composition root (domain/runtime.ts) points them at its log. */
export function reportSandboxTo(logLine: (line: string) => void): void {
  sandboxLog = logLine;
}

const cel = (): SandboxPool => (celLane ??= createSandboxPool(CEL_PROCESSES, { log }));
/**
 * The data lane's processes run at a lower priority: a tenant's long transform or large parse yields the cores to the
 * API, the worker, Temporal and PostgreSQL serving every tenant (issue 40). Their deadlines count CPU time (pool.ts),
 * so yielding does not fail them. Not SCHED_IDLE, as the file readers: its tasks are on runs' paths, and a process
 * getting next to no CPU on a saturated machine would still meet the deadlines' wall-clock cap.
 */
const DATA_LANE_NICE = 10;
const data = (): SandboxPool => (dataLane ??= createSandboxPool(DATA_PROCESSES, { nice: DATA_LANE_NICE, log }));

function celDeadline(limits: Partial<ExpressionLimits>): number {
  return limits.timeoutMs ?? DEFAULT_EXPRESSION_LIMITS.timeoutMs;
}

/** A CEL expression over a JSON context (see lib/expressions/cel.ts for its checks and value conversions). */
export async function evaluateCel(
  text: string,
  context: Record<string, unknown>,
  limits: Partial<ExpressionLimits> = {},
  tenant = '',
): Promise<unknown> {
  const task = { op: 'cel' as const, text, context: contextFor([text], context), ...(Object.keys(limits).length ? { limits } : {}) };
  return cel().run(task, celDeadline(limits), tenant);
}

/** Every `${...}` template in a JSON value rendered; a value without templates is copied here, with no trip to the sandbox. */
export async function renderTemplates(
  value: unknown,
  context: Record<string, unknown>,
  limits: Partial<ExpressionLimits> = {},
  tenant = '',
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
  return cel().run(task, celDeadline(limits) * Math.min(5, Math.max(1, expressions?.length ?? 1)), tenant);
}

/** A JSONata expression over data, with `$name` bindings. */
export async function evaluateJsonata(
  expression: string,
  input: unknown,
  bindings: Record<string, unknown> = {},
  limits: JsonataLimits = DEFAULT_JSONATA_LIMITS,
  tenant = '',
): Promise<unknown> {
  return data().run({ op: 'jsonata', expression, data: input, bindings, limits }, jsonataDeadline(limits), tenant);
}

/**
 * A little grace past JSONata's own deadline: a runaway between its checks is stopped, an ordinary timeout is
 * reported by JSONata itself and the process stays warm.
 */
const jsonataDeadline = (limits: JsonataLimits): number => limits.timeoutMs + 250;

/**
 * evaluateJsonata for a value that becomes a run's output (json_transform): a result past LARGE_RESULT_CHARS of
 * JSON comes back as those bytes, read from a file (libuv's thread pool), never parsed on this event loop, which
 * every tenant's runs share; a smaller one as the value.
 */
export async function evaluateJsonataForOutput(
  expression: string,
  input: unknown,
  bindings: Record<string, unknown>,
  limits: JsonataLimits,
  tenant: string,
): Promise<{ value: unknown } | { json: Buffer }> {
  return withBulkFiles(EMPTY, async (paths) => {
    const task = { op: 'jsonata' as const, expression, data: input, bindings, limits, resultFile: paths.output };
    const result = await data().run(task, jsonataDeadline(limits), tenant);
    return result instanceof ResultInFile ? { json: await readBulkResult(paths) } : { value: result };
  });
}

const EMPTY = Buffer.alloc(0);

/** Matches of a user regular expression (RE2) over a text; flags among i, m, s, u. */
export async function regexMatches(
  text: string,
  pattern: string,
  flags: string,
  maxMatches: number,
  tenant = '',
): Promise<{ matches: RegexMatch[]; truncated: boolean }> {
  if (!/^[imsu]*$/.test(flags)) throw new ExpressionError('INVALID_REGEX', 'regular expression flags are among i, m, s and u');
  const result = await data().run({ op: 'regex', text, pattern, flags, maxMatches }, REGEX_LIMITS.timeoutMs, tenant);
  return result as { matches: RegexMatch[]; truncated: boolean };
}

/**
 * Texts up to this many characters are parsed in the calling thread (a millisecond or two at most); larger ones in
 * the data lane. xml_parse and csv_parse run as local activities on the worker's event loop, which every run of every
 * tenant shares: a 10 MB XML held it 2–6 s there.
 */
export const INLINE_PARSE_CHARS = 64 * 1024;
/** The largest text the tools take (10 MB) parses in 1–3 s on a loaded 2-core machine; past this it is stopped. */
export const PARSE_DEADLINE_MS = 30_000;

/**
 * Work on a large input in the data lane, in `tenant`'s share of it, stopped at `deadlineMs`; input and result travel
 * as files (bulkFiles.ts). `result`: what the process wrote, when its reply says `written`.
 */
export async function runBulk(job: BulkJob, input: Buffer, deadlineMs: number, tenant = ''): Promise<{ reply: BulkReply; result: Buffer | null }> {
  return withBulkFiles(input, async (paths, writeInput) => {
    const reply = (await data().run({ op: 'bulk', job, ...paths }, deadlineMs, tenant, writeInput)) as BulkReply;
    return { reply, result: 'written' in reply ? await readBulkResult(paths) : null };
  });
}

/** On-demand JSONata extraction over a content file (lib/content/extractJob.ts) in the data lane, in `tenant`'s share. */
export function runInDataLane(task: Extract<SandboxTask, { op: 'extract' }>, deadlineMs: number, tenant = ''): Promise<unknown> {
  return data().run(task, deadlineMs, tenant);
}

/** Ends the sandbox processes (tests, shutdown); the next evaluation starts fresh ones. */
export async function closeSandbox(): Promise<void> {
  const lanes = [celLane, dataLane];
  celLane = null;
  dataLane = null;
  await Promise.all(lanes.map((lane) => lane?.close()));
  await removeBulkFolder();
}

export { ExpressionError } from '../errors';
export { REGEX_ENGINE, type RegexMatch } from './regex';
export type { BulkJob, BulkReply } from './bulk';
