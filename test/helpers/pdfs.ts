import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFHexString, PDFName, rgb, StandardFonts } from 'pdf-lib';
import { PermanentContentError } from '../../lib/content/errors';

/** PDFs made with pdf-lib for the thumbnail tests: a page to check pixels on, and hostile or broken files. */

/** Three 400 × 300 pt pages of one line of text each, titled "Quarterly report" by "Ann Analyst". */
export async function reportPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle('Quarterly report');
  doc.setAuthor('Ann Analyst');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const words of ['Page one talks about alpha particles', 'Page two is about beta testing', 'Page three covers gamma rays']) {
    doc.addPage([400, 300]).drawText(words, { x: 20, y: 150, size: 14, font });
  }
  return Buffer.from(await doc.save());
}

/** The code and message of the PermanentContentError that `work` fails with (a test failure if it succeeds). */
export async function permanentFailure(work: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  try {
    await work;
  } catch (err) {
    expect(err).toBeInstanceOf(PermanentContentError);
    return { code: (err as PermanentContentError).code, message: (err as Error).message };
  }
  throw new Error('expected a PermanentContentError');
}

/** A US Letter page (612 × 792 pt) with a black rectangle in its upper half and a line of text; more pages blank. */
export async function pdfWithBlackRectangle(pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const first = doc.addPage([612, 792]);
  // PDF y grows upwards: the rectangle spans x 100–400 and, from the top, y 192–392 (of 792).
  first.drawRectangle({ x: 100, y: 400, width: 300, height: 200, color: rgb(0, 0, 0) });
  first.drawText('Thumbnail test page', { x: 50, y: 700, size: 24, font: await doc.embedFont(StandardFonts.Helvetica) });
  for (let i = 1; i < pages; i += 1) doc.addPage([612, 792]);
  return Buffer.from(await doc.save());
}

/**
 * Encrypted with the standard security handler and an unknown user password: the /Encrypt dictionary's O and U
 * entries are random, so no password (the empty one included) opens it. The content is not really encrypted, which
 * does not matter: a reader must stop at the password.
 */
export async function passwordProtectedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawRectangle({ x: 10, y: 10, width: 50, height: 50, color: rgb(0, 0, 0) });
  const ctx = doc.context;
  const hex = (n: number) => PDFHexString.of(randomBytes(n).toString('hex'));
  ctx.trailerInfo.Encrypt = ctx.register(ctx.obj({ Filter: 'Standard', V: 1, R: 2, P: -44, O: hex(32), U: hex(32) }));
  const id = hex(16);
  ctx.trailerInfo.ID = ctx.obj([id, id]);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** A PDF signature followed by garbage: sniffed as application/pdf, unreadable as one. */
export function brokenPdf(): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2000), Buffer.from('\n%%EOF\n')]);
}

/** One page whose content stream draws `operations` tiny rectangles: seconds of rendering from a small file. */
export async function slowPdf(operations = 200_000): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([600, 800]);
  const ops: string[] = [];
  for (let i = 0; i < operations; i += 1) ops.push(`${i % 600} ${i % 800} 1 1 re f`);
  const stream = doc.context.stream(deflateSync(Buffer.from(ops.join('\n'))), { Filter: 'FlateDecode' });
  page.node.set(PDFName.of('Contents'), doc.context.register(stream));
  return Buffer.from(await doc.save());
}

/**
 * One page whose compressed content stream shows a one-letter string `operations` times: 2,000,000 of them are a
 * 290 kB file that takes pdf.js ~13 s and ~740 MB of heap to read the text of (a text bomb).
 */
export async function textBombPdf(operations = 2_000_000): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([400, 300]);
  page.drawText('x', { x: 10, y: 10, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  const font = [...(page.node.normalizedEntries().Font?.keys() ?? [])][0]!.asString();
  const stream = doc.context.stream(deflateSync(Buffer.from(`BT ${font} 12 Tf 10 10 Td (a) Tj ET\n`.repeat(operations))), { Filter: 'FlateDecode' });
  page.node.set(PDFName.of('Contents'), doc.context.register(stream));
  return Buffer.from(await doc.save());
}

/** A single page of the given size in points. */
export async function pdfOfPageSize(width: number, height: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([width, height]);
  return Buffer.from(await doc.save());
}

/** Darkest and lightest R, G or B value in a rectangle of raw pixels (sharp's stats() ignores extract()). */
export function regionLevels(
  pixels: Buffer,
  image: { width: number; channels: number },
  region: { left: number; top: number; width: number; height: number },
): { min: number; max: number } {
  let min = 255;
  let max = 0;
  for (let y = region.top; y < region.top + region.height; y += 1) {
    for (let x = region.left; x < region.left + region.width; x += 1) {
      const at = (y * image.width + x) * image.channels;
      for (let c = 0; c < 3; c += 1) {
        const v = pixels[at + c]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
  }
  return { min, max };
}
