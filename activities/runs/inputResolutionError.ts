/**
 * A node's input cannot be resolved: a bad reference or expression, an unknown secret, stored values over their
 * limits. The definition's or the data's problem, so the activities report it as a non-retryable failure whose type
 * is `code`. Its own module so that values.ts can throw it without importing resolve.ts (which imports values.ts).
 */
export class InputResolutionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
