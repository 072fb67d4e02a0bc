import mammoth from 'mammoth';
import type { DocxReadReply, DocxReadRequest } from './docx';
import { serveOneFile } from './fileChildEntry';

/**
 * The DOCX reader process (started by docx.ts through fileChild.ts, one per file): announces it is ready, converts
 * the one file it receives to Markdown with mammoth, answers, and exits. The parent kills it at the deadline or above
 * the memory cap; the archive itself was checked for zip bombs before it was sent.
 */
async function convert(request: DocxReadRequest): Promise<DocxReadReply> {
  try {
    // Markdown keeps headings and lists, which chunking and readers both use.
    const result = await (mammoth as unknown as { convertToMarkdown(input: { buffer: Buffer }): Promise<{ value: string }> }).convertToMarkdown({
      buffer: Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength),
    });
    return { ok: true, markdown: result.value.trim() };
  } catch (err) {
    return { ok: false, code: 'DOCX_INVALID', message: `unreadable DOCX: ${err instanceof Error ? err.message : String(err)}` };
  }
}

serveOneFile<DocxReadRequest, { markdown: string }, void>({
  name: 'docx reader',
  prepare: async () => undefined,
  handle: convert,
  failed: { code: 'DOCX_FAILED', describe: (message) => `converting the DOCX failed: ${message}` },
});
