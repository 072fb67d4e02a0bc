/**
 * A JSON object kept as its UTF-8 serialization, with the names of its top-level keys. A tool whose output is made
 * off the worker's event loop (a 10 MB XML parsed in the sandbox) answers with one: the worker then stores the
 * bytes as they are when the output is large, and never builds the object tree, parses it or serializes it again on
 * the event loop every tenant's runs share (issue 40).
 */
export class SerializedJson {
  constructor(
    readonly bytes: Buffer,
    readonly keys: readonly string[],
  ) {}

  /** The value itself: for outputs small enough to travel inline. */
  parse(): unknown {
    return JSON.parse(this.bytes.toString('utf8')) as unknown;
  }
}
