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
  /** evaluation wall time; CEL is not interruptible mid-evaluation, so this bounds what a result may cost */
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
