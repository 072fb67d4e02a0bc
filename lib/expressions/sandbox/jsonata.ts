import jsonata from 'jsonata';
import { ExpressionError, internalFailure } from '../errors';
import type { JsonataLimits } from '../limits';
import { SandboxRegExp } from './regex';

/**
 * JSONata (>= 2.0.4: earlier versions allowed prototype pollution through `$merge`/paths) in the calling thread,
 * with its own per-step checks (deadline, stack depth, sequence length) and RE2 for regex literals. Called inside a
 * sandbox process (child.ts), which also stops it at the deadline when a single step runs long.
 */

/** JSONata's error codes that mean "this expression does too much", not "it is wrong". */
const TOO_COMPLEX: Record<string, string> = {
  D1011: 'the expression recursed too deeply (nested function calls)',
  D2014: 'the expression built a range larger than allowed',
  D2015: 'the expression built a sequence longer than allowed',
};

interface JsonataFailure {
  code?: string;
  message?: string;
  position?: number;
}

function isJsonataFailure(err: unknown): err is JsonataFailure & object {
  return typeof err === 'object' && err !== null && typeof (err as JsonataFailure).code === 'string' && /^[A-Z]\d{4}$/.test((err as JsonataFailure).code!);
}

function mapFailure(err: unknown, limits: JsonataLimits, phase: 'compile' | 'evaluate'): ExpressionError {
  if (err instanceof ExpressionError) return err;
  if (!isJsonataFailure(err)) return internalFailure(err);
  const code = err.code!;
  if (code === 'D1012') return new ExpressionError('EXPRESSION_TIMEOUT', `expression ran longer than ${limits.timeoutMs} ms and was stopped`);
  if (TOO_COMPLEX[code]) return new ExpressionError('EXPRESSION_TOO_COMPLEX', TOO_COMPLEX[code]!);
  // JSONata's own messages are written for expression authors ("Expected ")" before end of expression").
  const message = `${code}: ${String(err.message ?? '').split('\n')[0]!.slice(0, 300)}`;
  return new ExpressionError(phase === 'compile' ? 'EXPRESSION_INVALID' : 'EXPRESSION_FAILED', message);
}

/**
 * Compiled expressions by limits and text: compiling costs ~120 µs for `{"n": n + 1}` and evaluating it ~20 µs, and
 * a workflow's transforms are the same few texts run after run (a loop runs one per item). A compiled expression
 * keeps no state between evaluations that could leak: each evaluation binds its input and variables in a frame of
 * its own. Its `$now()` reads a time set per evaluation, which is safe because a sandbox process runs one task at a
 * time.
 */
const MAX_COMPILED = 500;
const compiledByKey = new Map<string, jsonata.Expression>();

function compile(expression: string, limits: JsonataLimits): jsonata.Expression {
  const key = `${limits.timeoutMs} ${limits.maxStack} ${limits.maxSequence}\n${expression}`;
  const cached = compiledByKey.get(key);
  if (cached) {
    compiledByKey.delete(key); // most recently used last: the oldest entry is the one to drop
    compiledByKey.set(key, cached);
    return cached;
  }
  const compiled = jsonata(expression, {
    timeout: limits.timeoutMs,
    stack: limits.maxStack,
    sequence: limits.maxSequence,
    RegexEngine: SandboxRegExp,
  });
  if (compiledByKey.size >= MAX_COMPILED) compiledByKey.delete(compiledByKey.keys().next().value!);
  compiledByKey.set(key, compiled);
  return compiled;
}

/** How many reads of the CPU clock return the last reading before the next (a read is a getrusage call). */
const CPU_CLOCK_READ_EVERY = 64;

/**
 * JSONata's own between-steps deadline (its `timeout` option) reads Date.now(). During an evaluation in a sandbox
 * process, which runs one task at a time and nothing else meanwhile (the evaluation is one chain of microtasks),
 * Date.now() reads the process's CPU clock instead: the deadline counts the CPU time the evaluation got, like the
 * pool's (pool.ts, watchDeadline), so a lane starved of cores on a saturated machine does not fail a task for the
 * time it waited. `$now()` and `$millis()` read the time JSONata took with `new Date()`, which this leaves alone.
 */
const wallNow = Date.now;
/** Evaluations under way on the CPU clock (more than one only where tests evaluate in parallel in one process). */
let onClock = 0;

async function onCpuClock<T>(evaluation: () => Promise<T>): Promise<T> {
  if (onClock++ === 0) {
    const startedAt = wallNow();
    const cpuAtStart = process.cpuUsage();
    let reads = 0;
    let reading = startedAt;
    Date.now = () => {
      if (reads++ % CPU_CLOCK_READ_EVERY === 0) {
        const used = process.cpuUsage(cpuAtStart);
        reading = startedAt + Math.floor((used.user + used.system) / 1000);
      }
      return reading;
    };
  }
  try {
    return await evaluation();
  } finally {
    if (--onClock === 0) Date.now = wallNow;
  }
}

export async function evaluateJsonata(
  expression: string,
  data: unknown,
  bindings: Record<string, unknown>,
  limits: JsonataLimits,
): Promise<unknown> {
  if (expression.length > limits.maxExpressionLength) {
    throw new ExpressionError('EXPRESSION_INVALID', `expression longer than ${limits.maxExpressionLength} characters`);
  }
  let compiled: jsonata.Expression;
  try {
    compiled = compile(expression, limits);
  } catch (err) {
    throw mapFailure(err, limits, 'compile');
  }
  let result: unknown;
  try {
    result = await onCpuClock(() => compiled.evaluate(data, bindings));
  } catch (err) {
    throw mapFailure(err, limits, 'evaluate');
  }
  // JSONata sequences are arrays with extra flags; a JSON round trip gives plain data (and drops functions).
  try {
    return result === undefined ? null : (JSON.parse(JSON.stringify(result)) as unknown);
  } catch (err) {
    throw internalFailure(err);
  }
}
