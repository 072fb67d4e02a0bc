/** Raised for an expression that fails a check or an evaluation; `code` is stable for callers and run errors. */
export class ExpressionError extends Error {
  constructor(
    readonly code: 'EXPRESSION_INVALID' | 'EXPRESSION_FAILED' | 'EXPRESSION_LIMIT',
    message: string,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}
