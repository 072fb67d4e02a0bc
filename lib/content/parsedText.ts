import { PermanentContentError } from './errors';
import { extractText, htmlToText, structuredData, textStats, type ExtractedText } from './extractors';

/**
 * The parsing part of content processing (the worker's extract_text, extract_metadata and convert steps), written
 * so that it runs where the caller puts it: in place for small files, in an expression sandbox process for large
 * ones (activities/content/offLoop.ts, lib/expressions/sandbox/bulk.ts), so a 16 MB XML or CSV upload is parsed off
 * the worker's event loop, under a deadline, a heap cap and the organization's share of the lane. PDFs and DOCX
 * files have readers of their own (pdfText.ts, docx.ts) and never come here.
 */
export interface ContentTextJob {
  /**
   * `text`: the extracted text; `html`: HTML as text; `structure`: what extract_metadata records of JSON, CSV or XML;
   * `stats`: what it records of a text (characters, words, lines of the extracted text).
   */
  want: 'text' | 'html' | 'structure' | 'stats';
  mime: string;
}

export type ContentTextOutcome = { value: unknown } | { failed: { code?: string; message: string } };

export interface StructureSummary {
  kind: string;
  items?: number;
  columns?: string[];
  keys?: string[];
}

/** What extract_metadata records of structured data: its shape, not its values. */
export function structureSummary(data: unknown, mime: string): StructureSummary {
  return Array.isArray(data)
    ? { kind: 'array', items: data.length, ...(mime === 'text/csv' && data[0] ? { columns: Object.keys(data[0] as object) } : {}) }
    : { kind: typeof data, keys: data && typeof data === 'object' ? Object.keys(data).slice(0, 100) : [] };
}

/** The file's bytes answered; a file the extractors refuse comes back as `failed` (its code and message), not thrown. */
export async function answerContentText(job: ContentTextJob, bytes: Buffer): Promise<ContentTextOutcome> {
  try {
    if (job.want === 'html') return { value: htmlToText(bytes.toString('utf8')) };
    if (job.want === 'structure') return { value: structureSummary(structuredData(bytes, job.mime), job.mime) };
    if (job.want === 'stats') return { value: textStats((await extractText(bytes, job.mime)).text) };
    const extracted: ExtractedText = await extractText(bytes, job.mime);
    return { value: extracted };
  } catch (err) {
    if (err instanceof PermanentContentError) return { failed: { ...(err.code ? { code: err.code } : {}), message: err.message } };
    throw err;
  }
}
