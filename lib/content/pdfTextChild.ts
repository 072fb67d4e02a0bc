import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { serveOneFile } from './fileChildEntry';
import type { PdfReadAnswer, PdfReadReply, PdfReadRequest } from './pdfText';

/**
 * The PDF reader process (started by pdfText.ts through fileChild.ts, one per file): loads pdf.js (unpdf's build),
 * announces it is ready, reads the text of every page or the document's metadata from the one file it receives,
 * answers, and exits. The parent kills it at the deadline or above the memory cap.
 */
async function read(request: PdfReadRequest): Promise<PdfReadAnswer> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(request.bytes);
  } catch (err) {
    const name = (err as { name?: string } | null)?.name;
    if (name === 'PasswordException') throw Object.assign(new Error('the PDF is encrypted with a password; it cannot be read without it'), { code: 'PDF_ENCRYPTED' });
    throw Object.assign(new Error(`unreadable PDF: ${(err as Error).message}`), { code: 'PDF_INVALID' });
  }
  try {
    if (request.want === 'info') {
      const meta = await getMeta(pdf);
      const info = Object.fromEntries(
        Object.entries((meta.info ?? {}) as Record<string, unknown>).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)),
      );
      return { pageCount: pdf.numPages, info };
    }
    const { text } = await extractText(pdf, { mergePages: false });
    return { pageCount: pdf.numPages, pages: (text as string[]).map((t) => t.trim()) };
  } finally {
    await pdf.destroy();
  }
}

serveOneFile<PdfReadRequest, PdfReadAnswer, void>({
  name: 'pdf reader',
  prepare: async () => undefined,
  handle: (request) =>
    read(request).then(
      (answer): PdfReadReply => ({ ok: true, ...answer }),
      (err: unknown): PdfReadReply => {
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('PDF_')) return { ok: false, code, message: (err as Error).message };
        throw err;
      },
    ),
  failed: { code: 'PDF_TEXT_FAILED', describe: (message) => `reading the PDF failed: ${message}` },
});
