/** Bounds on user expressions, checked when a workflow is saved and again when an expression is evaluated. */
export interface ExpressionLimits {
  /** characters of one expression */
  maxLength: number;
  /** bracket nesting, checked before parsing so hostile input never reaches a recursive parser deeply */
  maxDepth: number;
  /** parsed AST nodes */
  maxAstNodes: number;
  /** nested comprehension macros (`map`, `filter`, `all`, `exists`, `exists_one`): n^k work for k levels */
  maxComprehensionDepth: number;
  /** evaluation deadline: the sandbox kills the evaluating process when it passes (lib/expressions/sandbox) */
  timeoutMs: number;
  /** JSON size of a result */
  maxResultBytes: number;
}

export const DEFAULT_EXPRESSION_LIMITS: ExpressionLimits = {
  maxLength: 4000,
  maxDepth: 32,
  maxAstNodes: 1000,
  maxComprehensionDepth: 2,
  timeoutMs: 1000,
  maxResultBytes: 1024 * 1024,
};

/** Templates: how many `${...}` a value may hold, and how deep objects/arrays given to renderTemplates may be. */
export const MAX_TEMPLATES_PER_VALUE = 500;
export const MAX_VALUE_DEPTH = 64;

/** Names that lead to JavaScript internals; refused anywhere in an expression. */
export const FORBIDDEN_NAMES = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'this',
  'process',
  'require',
  'module',
  'globalThis',
  'global',
  'eval',
  'Function',
  'import',
]);

/** JSONata (json_transform tool, content extraction): its own per-step checks plus the sandbox's hard deadline. */
export interface JsonataLimits {
  /**
   * deadline; JSONata checks it between steps, the sandbox kills the process shortly after it regardless (0 leaves
   * only the sandbox's hard stop, 250 ms: tests use it to show that stop works without JSONata's help)
   */
  timeoutMs: number;
  /** nested function calls (JSONata's own stack guard, before JavaScript's) */
  maxStack: number;
  /** items of one sequence, e.g. `[1..n]` */
  maxSequence: number;
  /** characters of one expression */
  maxExpressionLength: number;
}

export const DEFAULT_JSONATA_LIMITS: JsonataLimits = {
  timeoutMs: 2000,
  maxStack: 300,
  maxSequence: 100_000,
  maxExpressionLength: 10_000,
};

/** Regular expressions from users (content extraction): RE2 runs them in linear time, under a deadline too. */
export const REGEX_LIMITS = { maxPatternLength: 1000, timeoutMs: 2000, maxMatches: 10_000 };
