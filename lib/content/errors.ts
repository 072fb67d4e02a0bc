/**
 * A failure that retrying cannot fix (unknown type, file too large, corrupt file, bad expression): the step fails
 * at once with this message instead of burning its attempts. `code`, when set, is a stable name for the cause
 * (e.g. `PDF_ENCRYPTED`); the processing step records it in its output as `errorCode`.
 */
export class PermanentContentError extends Error {
  readonly code: string | undefined;

  constructor(message: string, code?: string) {
    super(message);
    this.name = 'PermanentContentError';
    this.code = code;
  }
}
