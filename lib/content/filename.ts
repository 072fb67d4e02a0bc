import path from 'node:path';

/** Bidirectional controls: U+202E and friends make `invoice<RLO>fdp.exe` display as `invoiceexe.pdf`. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const MAX_FILENAME = 255;

/**
 * The name recorded for an uploaded file (metadata only: object keys never derive from it). The last path
 * segment, NFC-normalised, without C0/C1 control characters or bidirectional controls, at most 255 UTF-16 units
 * cut on a code point boundary; empty or dots-only names become `file`.
 */
export function sanitizeFilename(name: string | undefined): string {
  const base = [...path.posix.basename((name ?? '').normalize('NFC').replace(/\\/g, '/'))]
    .filter((ch) => {
      const code = ch.codePointAt(0)!;
      return code >= 32 && !(code >= 0x7f && code <= 0x9f);
    })
    .join('')
    .replace(BIDI_CONTROLS, '')
    .trim();
  let out = '';
  for (const ch of base) {
    if (out.length + ch.length > MAX_FILENAME) break;
    out += ch;
  }
  out = out.trim();
  return /^\.*$/.test(out) ? 'file' : out;
}
