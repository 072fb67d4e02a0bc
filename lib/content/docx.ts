import { PermanentContentError } from './errors';
import { runFileChild, type FileChildLimits, type FileChildReply } from './fileChild';
import { checkZip, ZipRefused } from './zipGuard';

/**
 * DOCX to Markdown with mammoth, in a child process of its own (docxChild.ts, run by fileChild.ts). mammoth holds
 * the whole document tree: a 60 kB DOCX whose document is 20 MB of tiny paragraphs took 2.8 GB and 28 s in-process,
 * and the zip check allows 128 MB of XML. The reader is killed at its deadline or above its memory cap instead.
 * Failures that depend on the file are PermanentContentErrors: DOCX refused (zip check), DOCX_INVALID,
 * DOCX_TIMEOUT, DOCX_TOO_COMPLEX, DOCX_FAILED.
 */
export const DOCX_READ_LIMITS: FileChildLimits & { heapMb: number } = {
  deadlineMs: 60_000,
  // A long real document (hundreds of pages, 10 MB of XML) converts in well under this.
  maxMemoryBytes: 1536 * 1024 * 1024,
  heapMb: 1280,
};

/** Far above any real document (text, styles, a few images); a zip bomb is refused before mammoth inflates it. */
const DOCX_ZIP_LIMITS = { maxTotalBytes: 128 * 1024 * 1024, maxEntries: 10_000 };

export interface DocxReadRequest {
  bytes: Uint8Array;
}

export type DocxReadReply = FileChildReply<{ markdown: string }>;

export async function docxMarkdown(bytes: Buffer, overrides: Partial<typeof DOCX_READ_LIMITS> = {}, tenant = ''): Promise<string> {
  try {
    checkZip(bytes, DOCX_ZIP_LIMITS);
  } catch (err) {
    if (err instanceof ZipRefused) throw new PermanentContentError(`DOCX refused: ${err.message}`);
    throw err;
  }
  const { heapMb, ...limits } = { ...DOCX_READ_LIMITS, ...overrides };
  return runFileChild<{ markdown: string }, string>({
    program: 'docxChild',
    reader: 'the DOCX reader',
    heapMb,
    doing: 'converting the DOCX',
    request: { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) } satisfies DocxReadRequest,
    limits,
    codes: { timeout: 'DOCX_TIMEOUT', tooComplex: 'DOCX_TOO_COMPLEX', failed: 'DOCX_FAILED' },
    accept: ({ markdown }) => markdown,
    tenant,
  });
}
