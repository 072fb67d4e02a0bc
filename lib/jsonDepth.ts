/**
 * JSON from clients is nested at most this deep. Code that walks a parsed value recursively (zod schemas,
 * `JSON.stringify`, the idempotency fingerprint, tree walkers) runs out of call stack somewhere past 2,000 levels, a
 * RangeError and a 500; no document of ours needs more than a few dozen.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Whether a JSON text nests arrays and objects deeper than `maxDepth`, read in one pass without parsing (brackets
 * inside strings do not count). Malformed text gets some answer; the parser refuses it afterwards.
 */
export function jsonNestedDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote, past escaped characters
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
