import { runFileChild, type FileChildLimits, type FileChildReply } from './fileChild';

/**
 * Text and metadata of a PDF, read by pdf.js in a child process of its own (pdfTextChild.ts, run by fileChild.ts):
 * a page of compressed text operations can expand to gigabytes of parsed text items, so the reader is killed at its
 * deadline or above its memory cap instead of taking the worker or the API with it. Failures that depend on the
 * file are PermanentContentErrors: PDF_INVALID, PDF_ENCRYPTED, PDF_TEXT_TIMEOUT, PDF_TOO_COMPLEX, PDF_TEXT_FAILED.
 */
export const PDF_READ_LIMITS: FileChildLimits = {
  // A few hundred pages of text take seconds; this is for documents far past that.
  deadlineMs: 60_000,
  maxMemoryBytes: 768 * 1024 * 1024,
};

/** Messages between this module and pdfTextChild.ts (structured clone over IPC). */
export interface PdfReadRequest {
  bytes: Uint8Array;
  want: 'text' | 'info';
}

export interface PdfReadAnswer {
  pageCount: number;
  /** Each page's text, trimmed (want: text). */
  pages?: string[];
  /** The document's information dictionary, scalar values only (want: info). */
  info?: Record<string, unknown>;
}

export type PdfReadReply = FileChildReply<PdfReadAnswer>;

const CODES = { timeout: 'PDF_TEXT_TIMEOUT', tooComplex: 'PDF_TOO_COMPLEX', failed: 'PDF_TEXT_FAILED' };

function read(bytes: Buffer, want: PdfReadRequest['want'], limits: FileChildLimits, tenant: string): Promise<PdfReadAnswer> {
  return runFileChild<PdfReadAnswer, PdfReadAnswer>({
    program: 'pdfTextChild',
    reader: 'the PDF reader',
    heapMb: 512,
    doing: want === 'text' ? 'reading the text' : 'reading the metadata',
    request: { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), want } satisfies PdfReadRequest,
    limits,
    codes: CODES,
    accept: (answer) => answer,
    tenant,
  });
}

/** Each page's text, trimmed. `tenant`: the organization whose file it is (its share of the readers). */
export async function pdfPages(bytes: Buffer, overrides: Partial<FileChildLimits> = {}, tenant = ''): Promise<string[]> {
  return (await read(bytes, 'text', { ...PDF_READ_LIMITS, ...overrides }, tenant)).pages ?? [];
}

/** Page count and the information dictionary's scalar values (Title, Author, ...). */
export async function pdfInfo(bytes: Buffer, overrides: Partial<FileChildLimits> = {}, tenant = ''): Promise<Record<string, unknown>> {
  const answer = await read(bytes, 'info', { ...PDF_READ_LIMITS, ...overrides }, tenant);
  return { pages: answer.pageCount, info: answer.info ?? {} };
}
