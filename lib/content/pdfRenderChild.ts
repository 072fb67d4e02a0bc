import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { serveOneFile } from './fileChildEntry';
import type { PdfRenderErrorCode, PdfRenderReply, PdfRenderRequest, RenderAnswer } from './pdfRender';

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

serveOneFile<PdfRenderRequest, RenderAnswer, typeof import('pdfjs-dist/legacy/build/pdf.mjs')>({
  name: 'pdf renderer',
  prepare: () => import('pdfjs-dist/legacy/build/pdf.mjs'),
  handle: (request, pdfjs) =>
    render(request, pdfjs).catch((err: unknown): PdfRenderReply => {
      const failure = classify(err);
      return { ok: false, code: failure.code, message: failure.message };
    }),
  failed: { code: 'PDF_RENDER_FAILED', describe: (message) => `rendering the first page failed: ${message}` },
});
