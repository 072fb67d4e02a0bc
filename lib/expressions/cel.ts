import { Environment, EvaluationError, ParseError, TypeError as CelTypeError, type ASTNode } from '@marcbachmann/cel-js';
import { ExpressionError, internalFailure } from './errors';
import { DEFAULT_EXPRESSION_LIMITS, FORBIDDEN_NAMES, type ExpressionLimits } from './limits';
import { regexProblem } from './regexSafety';
import { fromCel, toCel } from './values';

/**
 * CEL (Common Expression Language) through @marcbachmann/cel-js: non-Turing-complete, no access to JavaScript
 * objects beyond the data given, no clock or randomness. On top of the library we bound length, bracket depth,
 * AST size and comprehension nesting, refuse names that lead to JavaScript internals, and only allow `matches`
 * with a literal, vetted pattern (the library runs JavaScript's backtracking RegExp).
 */

const COMPREHENSIONS = new Set(['map', 'filter', 'all', 'exists', 'exists_one']);

function environment(limits: ExpressionLimits): Environment {
  return new Environment({
    unlistedVariablesAreDyn: true,
    homogeneousAggregateLiterals: false,
    limits: {
      maxAstNodes: limits.maxAstNodes,
      maxDepth: limits.maxDepth,
      maxListElements: 200,
      maxMapEntries: 200,
      maxCallArguments: 16,
    },
  });
}

let defaultEnv: Environment | null = null;
function envFor(limits: ExpressionLimits): Environment {
  if (limits === DEFAULT_EXPRESSION_LIMITS) return (defaultEnv ??= environment(limits));
  return environment(limits);
}

/** Bracket nesting outside string literals, computed without recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') max = Math.max(max, ++depth);
    else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
  }
  return max;
}

/** The first line of a CEL error (its message without the source excerpt). */
function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}

/** CEL's own errors speak to the author ("No such key: b"); anything else is an engine internal, never echoed. */
function isCelError(err: unknown): err is Error {
  return err instanceof EvaluationError || err instanceof ParseError || err instanceof CelTypeError;
}

/** Walks the AST iteratively (no recursion: the AST depth is bounded, but be safe anyway). */
function astProblems(root: ASTNode, limits: ExpressionLimits): string[] {
  const problems: string[] = [];
  const stack: { node: ASTNode; comprehension: number }[] = [{ node: root, comprehension: 0 }];
  while (stack.length) {
    const { node, comprehension } = stack.pop()!;
    const push = (child: unknown, level = comprehension): void => {
      if (child && typeof child === 'object' && 'op' in (child as object)) {
        stack.push({ node: child as ASTNode, comprehension: level });
      }
    };
    switch (node.op) {
      case 'id':
        if (FORBIDDEN_NAMES.has(node.args)) problems.push(`the name "${node.args}" is not allowed`);
        break;
      case '.':
      case '.?':
        if (FORBIDDEN_NAMES.has(node.args[1])) problems.push(`the field "${node.args[1]}" is not allowed`);
        push(node.args[0]);
        break;
      case '[]':
      case '[?]': {
        const key = node.args[1];
        if (key.op === 'value' && typeof key.args === 'string' && FORBIDDEN_NAMES.has(key.args)) {
          problems.push(`the key "${key.args}" is not allowed`);
        }
        push(node.args[0]);
        push(key);
        break;
      }
      case 'rcall':
      case 'call': {
        const name = node.args[0];
        const args = node.op === 'rcall' ? node.args[2] : node.args[1];
        if (FORBIDDEN_NAMES.has(name)) problems.push(`the function "${name}" is not allowed`);
        if (name === 'matches') {
          const pattern = args[args.length - 1];
          if (!pattern || pattern.op !== 'value' || typeof pattern.args !== 'string') {
            problems.push('matches() takes a string literal pattern');
          } else {
            const why = regexProblem(pattern.args);
            if (why) problems.push(`matches(): ${why}`);
          }
        }
        let level = comprehension;
        if (node.op === 'rcall' && COMPREHENSIONS.has(name)) {
          level = comprehension + 1;
          if (level > limits.maxComprehensionDepth) {
            problems.push(`comprehensions (map, filter, all, exists) nest at most ${limits.maxComprehensionDepth} deep`);
          }
        }
        if (node.op === 'rcall') push(node.args[1]);
        for (const arg of args) push(arg, level);
        break;
      }
      case 'value':
        break;
      case 'list':
        for (const item of node.args) push(item);
        break;
      case 'map':
        for (const [k, v] of node.args) {
          push(k);
          push(v);
        }
        break;
      case '!_':
      case '-_':
        push(node.args);
        break;
      default:
        for (const arg of node.args as unknown[]) push(arg);
    }
  }
  return problems;
}

export interface ExpressionCheck {
  ok: boolean;
  problems: string[];
}

/** Parses and checks an expression without evaluating it (save time). */
export function checkExpression(text: string, limits: ExpressionLimits = DEFAULT_EXPRESSION_LIMITS): ExpressionCheck {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, problems: ['expression is empty'] };
  if (text.length > limits.maxLength) {
    return { ok: false, problems: [`expression longer than ${limits.maxLength} characters`] };
  }
  if (nestingDepth(text) > limits.maxDepth) {
    return { ok: false, problems: [`expression nested deeper than ${limits.maxDepth} levels`] };
  }
  let parsed;
  try {
    parsed = envFor(limits).parse(text);
  } catch (err) {
    if (!isCelError(err)) return { ok: false, problems: [internalFailure(err).message] };
    return { ok: false, problems: [`invalid expression: ${firstLine(err)}`] };
  }
  const problems = astProblems(parsed.ast, limits);
  if (problems.length === 0) {
    const typed = parsed.check();
    if (!typed.valid) problems.push(`invalid expression: ${firstLine(typed.error)}`);
  }
  return { ok: problems.length === 0, problems };
}

/** The AST of an expression that passed checkExpression (used to find references). */
export function parseExpression(text: string, limits: ExpressionLimits = DEFAULT_EXPRESSION_LIMITS): ASTNode {
  const check = checkExpression(text, limits);
  if (!check.ok) throw new ExpressionError('EXPRESSION_INVALID', check.problems.join('; '));
  return envFor(limits).parse(text).ast;
}

type Program = ReturnType<Environment['parse']>;

/** Checked programs by text (default limits only): a condition evaluated for every node of every run parses once. */
const programs = new Map<string, Program>();
const MAX_CACHED_PROGRAMS = 2000;

function programFor(text: string, limits: ExpressionLimits): Program {
  const cacheable = limits === DEFAULT_EXPRESSION_LIMITS;
  const cached = cacheable ? programs.get(text) : undefined;
  if (cached) return cached;
  const check = checkExpression(text, limits);
  if (!check.ok) throw new ExpressionError('EXPRESSION_INVALID', check.problems.join('; '));
  const program = envFor(limits).parse(text);
  if (cacheable) {
    if (programs.size >= MAX_CACHED_PROGRAMS) programs.delete(programs.keys().next().value!);
    programs.set(text, program);
  }
  return program;
}

/**
 * Evaluates a CEL expression over plain JSON data, in the calling thread. Integral numbers are CEL ints, others
 * doubles; the result is plain JSON again (ints back to numbers). Throws ExpressionError: EXPRESSION_INVALID (fails
 * the checks), EXPRESSION_FAILED (e.g. a missing key), EXPRESSION_LIMIT (too large a result), EXPRESSION_TOO_COMPLEX.
 * Not interruptible: callers outside lib/expressions go through the sandbox (lib/expressions/sandbox), which runs
 * this in a process it can stop at the deadline.
 */
export function evaluateExpression(
  text: string,
  context: Record<string, unknown>,
  limits: Partial<ExpressionLimits> = {},
): unknown {
  const effective = Object.keys(limits).length ? { ...DEFAULT_EXPRESSION_LIMITS, ...limits } : DEFAULT_EXPRESSION_LIMITS;
  const program = programFor(text, effective);
  const data = toCel(context) as Record<string, unknown>;
  let raw: unknown;
  try {
    raw = program(data);
  } catch (err) {
    if (!isCelError(err)) throw internalFailure(err);
    throw new ExpressionError('EXPRESSION_FAILED', firstLine(err));
  }
  if (raw instanceof Promise) throw new ExpressionError('EXPRESSION_FAILED', 'asynchronous expressions are not supported');
  const value = fromCel(raw);
  if (JSON.stringify(value ?? null).length > effective.maxResultBytes) {
    throw new ExpressionError('EXPRESSION_LIMIT', `expression result larger than ${effective.maxResultBytes} bytes`);
  }
  return value;
}
