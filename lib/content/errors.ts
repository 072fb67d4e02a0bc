/**
 * A failure that retrying cannot fix (unknown type, file too large, corrupt file, bad expression): the step fails
 * at once with this message instead of burning its attempts.
 */
export class PermanentContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentContentError';
  }
}
