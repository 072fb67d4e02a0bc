import { trimEndChars } from '../../lib/trimChars';

/**
 * A few readable EXIF fields from the raw EXIF block sharp returns (TIFF structure, IFD0 and the Exif sub-IFD).
 * Enough for "what camera, when, which orientation"; no maker notes, no GPS decoding.
 */
const TAGS: Record<number, string> = {
  0x010f: 'make',
  0x0110: 'model',
  0x0112: 'orientation',
  0x0131: 'software',
  0x0132: 'dateTime',
  0x013b: 'artist',
  0x8298: 'copyright',
  0x9003: 'dateTimeOriginal',
  0xa002: 'pixelXDimension',
  0xa003: 'pixelYDimension',
};
const EXIF_IFD_POINTER = 0x8769;

export function parseExif(raw: Buffer | undefined): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (!raw) return out;
  try {
    const start = raw.indexOf('Exif\0\0') === 0 ? 6 : 0;
    const tiff = raw.subarray(start);
    const little = tiff.toString('ascii', 0, 2) === 'II';
    const u16 = (o: number) => (little ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
    const u32 = (o: number) => (little ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
    const readIfd = (offset: number, depth: number): void => {
      if (offset <= 0 || offset + 2 > tiff.length || depth > 2) return;
      const count = Math.min(u16(offset), 500);
      for (let i = 0; i < count; i += 1) {
        const entry = offset + 2 + i * 12;
        if (entry + 12 > tiff.length) return;
        const tag = u16(entry);
        const type = u16(entry + 2);
        const n = u32(entry + 4);
        if (tag === EXIF_IFD_POINTER) {
          readIfd(u32(entry + 8), depth + 1);
          continue;
        }
        const name = TAGS[tag];
        if (!name) continue;
        if (type === 2) {
          const at = n > 4 ? u32(entry + 8) : entry + 8;
          if (at + n <= tiff.length) out[name] = trimEndChars(tiff.toString('latin1', at, at + n), '\0').trim();
        } else if (type === 3) out[name] = u16(entry + 8);
        else if (type === 4) out[name] = u32(entry + 8);
      }
    };
    readIfd(u32(4), 0);
  } catch {
    // A malformed EXIF block yields whatever was read before it.
  }
  return out;
}
