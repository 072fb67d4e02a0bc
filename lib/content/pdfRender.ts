import { PermanentContentError } from './errors';
import { runFileChild, type FileChildLimits, type FileChildReply } from './fileChild';

/**
 * Renders the first page of a PDF to RGBA pixels (for thumbnails) with pdf.js (`pdfjs-dist`, legacy build) on a
 * `@napi-rs/canvas` canvas, in a child process of its own (pdfRenderChild.ts, run by fileChild.ts) so that a hostile
 * file can always be abandoned: the process is killed when the render passes its deadline or its memory cap, and a
 * crash of the native canvas code ends that process only. Fixed limits refuse absurd documents before rendering
 * (page count, page size, embedded image pixels); the canvas itself is never larger than the requested box.
 *
 * Failures that depend on the file are PermanentContentErrors with a stable code (PDF_ENCRYPTED, PDF_INVALID,
 * PDF_TOO_MANY_PAGES, PDF_PAGE_SIZE, PDF_RENDER_TIMEOUT, PDF_TOO_COMPLEX, PDF_RENDER_FAILED); a renderer that cannot
 * start, or is killed from outside, is a ServiceUnavailableError (worth a retry; fileChild.ts).
 */
export interface PdfRenderLimits extends FileChildLimits {
  /** Documents claiming more pages are refused (a real document stays far below). */
  maxPages: number;
  /** Longest page edge at 72 dpi, in points; the PDF specification's own maximum is 14,400. */
  maxPageEdge: number;
  /** Embedded images above this many pixels are left out of the render (pdf.js `maxImageSize`). */
  maxImagePixels: number;
}

export const PDF_RENDER_LIMITS: PdfRenderLimits = {
  deadlineMs: 30_000,
  maxMemoryBytes: 768 * 1024 * 1024,
  maxPages: 50_000,
  maxPageEdge: 14_400,
  maxImagePixels: 40_000_000,
};

export type PdfRenderErrorCode =
  | 'PDF_ENCRYPTED'
  | 'PDF_INVALID'
  | 'PDF_TOO_MANY_PAGES'
  | 'PDF_PAGE_SIZE'
  | 'PDF_RENDER_TIMEOUT'
  | 'PDF_TOO_COMPLEX'
  | 'PDF_RENDER_FAILED';

export interface RenderedPage {
  /** Canvas size in pixels: the page fitted inside the requested box. */
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA, not premultiplied; the page background is opaque white. */
  rgba: Buffer;
  /** Page count of the document and size of the first page in points. */
  pages: number;
  pageWidth: number;
  pageHeight: number;
}

/** Messages between this module and pdfRenderChild.ts (structured clone over IPC). */
export interface PdfRenderRequest {
  bytes: Uint8Array;
  box: number;
  limits: Pick<PdfRenderLimits, 'maxPages' | 'maxPageEdge' | 'maxImagePixels'>;
}

export interface RenderAnswer {
  width: number;
  height: number;
  rgba: Uint8Array;
  pages: number;
  pageWidth: number;
  pageHeight: number;
}

export type PdfRenderReply = FileChildReply<RenderAnswer>;

/** The first page fitted inside a `box` × `box` pixel square. */
export async function renderPdfFirstPage(bytes: Buffer, box: number, overrides: Partial<PdfRenderLimits> = {}, tenant = ''): Promise<RenderedPage> {
  const limits = { ...PDF_RENDER_LIMITS, ...overrides };
  const request: PdfRenderRequest = {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    box,
    limits: { maxPages: limits.maxPages, maxPageEdge: limits.maxPageEdge, maxImagePixels: limits.maxImagePixels },
  };
  return runFileChild<RenderAnswer, RenderedPage>({
    program: 'pdfRenderChild',
    reader: 'the PDF renderer',
    heapMb: 512,
    doing: 'rendering the first page',
    request,
    limits,
    codes: { timeout: 'PDF_RENDER_TIMEOUT', tooComplex: 'PDF_TOO_COMPLEX', failed: 'PDF_RENDER_FAILED' },
    tenant,
    accept({ width, height, rgba: pixels, pages, pageWidth, pageHeight }) {
      const rgba = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
      if (rgba.length !== width * height * 4) throw new PermanentContentError('the renderer answered with a malformed image', 'PDF_RENDER_FAILED');
      return { width, height, rgba, pages, pageWidth, pageHeight };
    },
  });
}
