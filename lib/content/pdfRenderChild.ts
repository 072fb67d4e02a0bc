import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type { PdfRenderErrorCode, PdfRenderReply, PdfRenderRequest } from './pdfRender';

/**
 * The PDF renderer process (started by pdfRender.ts, one per render): loads pdf.js, announces it is ready, renders
 * the first page of the one file it receives into a canvas that fits the requested box, answers with the pixels or
 * a coded failure, and exits. The parent kills it at the deadline or above the memory cap.
 */
class RenderFailure extends Error {
  constructor(
    readonly code: PdfRenderErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
/** pdf.js reads these with fs in Node: trailing slashes required. */
const assetDir = (name: string): string => path.join(PDFJS_ROOT, name) + path.sep;

function send(reply: PdfRenderReply): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(reply, undefined, undefined, () => resolve());
  });
}

function classify(err: unknown): RenderFailure {
  if (err instanceof RenderFailure) return err;
  const name = (err as { name?: string } | null)?.name;
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'PasswordException') return new RenderFailure('PDF_ENCRYPTED', 'the PDF is encrypted with a password; it cannot be rendered without it');
  if (name === 'InvalidPDFException' || name === 'MissingPDFException' || name === 'FormatError') {
    return new RenderFailure('PDF_INVALID', `unreadable PDF: ${message}`);
  }
  return new RenderFailure('PDF_RENDER_FAILED', `rendering the first page failed: ${message}`);
}

async function render(request: PdfRenderRequest, pdfjs: typeof import('pdfjs-dist/legacy/build/pdf.mjs')): Promise<PdfRenderReply> {
  const { limits, box } = request;
  const pdf = await pdfjs.getDocument({
    data: request.bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: assetDir('standard_fonts'),
    cMapUrl: assetDir('cmaps'),
    cMapPacked: true,
    wasmUrl: assetDir('wasm'),
    iccUrl: assetDir('iccs'),
    maxImageSize: limits.maxImagePixels,
    enableXfa: false,
    verbosity: 0,
  }).promise;
  try {
    if (pdf.numPages < 1) throw new RenderFailure('PDF_INVALID', 'the PDF has no pages');
    if (pdf.numPages > limits.maxPages) {
      throw new RenderFailure('PDF_TOO_MANY_PAGES', `the PDF claims ${pdf.numPages} pages; thumbnails are made for up to ${limits.maxPages}`);
    }
    const page = await pdf.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const edges = [natural.width, natural.height];
    if (!edges.every((e) => Number.isFinite(e) && e >= 1 && e <= limits.maxPageEdge)) {
      throw new RenderFailure(
        'PDF_PAGE_SIZE',
        `the first page measures ${Math.round(natural.width)} × ${Math.round(natural.height)} pt; thumbnails need edges of 1 to ${limits.maxPageEdge} pt`,
      );
    }
    const viewport = page.getViewport({ scale: Math.min(box / natural.width, box / natural.height) });
    const width = Math.min(box, Math.max(1, Math.round(viewport.width)));
    const height = Math.min(box, Math.max(1, Math.round(viewport.height)));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    // Annotations with appearance streams (stamps, form fields) are drawn as a viewer shows them; the page is
    // painted on opaque white first.
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport, background: 'rgb(255,255,255)' }).promise;
    const pixels = context.getImageData(0, 0, width, height).data;
    page.cleanup();
    return {
      ok: true,
      width,
      height,
      rgba: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength),
      pages: pdf.numPages,
      pageWidth: natural.width,
      pageHeight: natural.height,
    };
  } finally {
    await pdf.destroy();
  }
}

async function main(): Promise<void> {
  // The parent gone (worker stopped or crashed): nobody waits for this render.
  process.once('disconnect', () => process.exit(1));
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  process.once('message', (request: PdfRenderRequest) => {
    render(request, pdfjs)
      .catch((err: unknown) => {
        const failure = classify(err);
        return { ok: false as const, code: failure.code, message: failure.message };
      })
      .then(send)
      .finally(() => process.exit(0));
  });
  await send({ ready: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`pdf renderer: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
