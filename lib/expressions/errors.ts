/**
 * Codes of expression failures, stable for callers, run errors and API answers:
 * - EXPRESSION_INVALID: fails a save-time check or does not parse;
 * - EXPRESSION_FAILED: a well-formed expression failed on this data (a missing key, a type mismatch);
 * - EXPRESSION_LIMIT: its result or its data is larger or deeper than allowed;
 * - EXPRESSION_TIMEOUT: it ran past its deadline and was stopped;
 * - EXPRESSION_TOO_COMPLEX: it recursed too deeply, built too long a sequence or used too much memory;
 * - INVALID_REGEX: a regular expression that does not compile or is refused.
 */
export type ExpressionErrorCode =
  | 'EXPRESSION_INVALID'
  | 'EXPRESSION_FAILED'
  | 'EXPRESSION_LIMIT'
  | 'EXPRESSION_TIMEOUT'
  | 'EXPRESSION_TOO_COMPLEX'
  | 'INVALID_REGEX';

/** Raised for an expression that fails a check or an evaluation. Messages never carry engine internals. */
export class ExpressionError extends Error {
  constructor(
    readonly code: ExpressionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

/**
 * An error thrown inside an engine that is not one of its own user-facing errors (a JavaScript RangeError or
 * TypeError from its internals, a native failure): a clear code and message, never the engine's words or stack.
 */
export function internalFailure(err: unknown): ExpressionError {
  if (err instanceof ExpressionError) return err;
  const message = err instanceof Error ? err.message : '';
  if (err instanceof RangeError && /call stack/i.test(message)) {
    return new ExpressionError('EXPRESSION_TOO_COMPLEX', 'the expression recursed too deeply');
  }
  if (err instanceof RangeError && /invalid (string|array|typed array) length|allocation/i.test(message)) {
    return new ExpressionError('EXPRESSION_TOO_COMPLEX', 'the expression built a value too large to hold');
  }
  return new ExpressionError('EXPRESSION_FAILED', 'the expression could not be evaluated on this data');
}
