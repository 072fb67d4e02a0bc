import { readFileSync, writeFileSync } from 'node:fs';
import { answerContentText, type ContentTextJob } from '../../content/parsedText';
import type { ExtractedText } from '../../content/extractors';
import { parsedOutput, parseRequest, type CsvOptions, type ParseRequest, type XmlOptions } from '../../textParsers';

/**
 * Work of the data lane whose input and result are files (bulkFiles.ts tells why): the process reads the input,
 * does the work and writes the result; the answer over the channel is a few bytes.
 */
export type BulkJob =
  /** The parsing tools: the file holds the text; the result is the tool's output as JSON (`{ [wrap]: value }` or the value). */
  | { kind: 'parse'; format: 'xml'; options: XmlOptions; wrap?: string }
  | { kind: 'parse'; format: 'csv'; options: CsvOptions; wrap?: string }
  /** Content processing: the file holds the original; the result is the text (`text`, `html`) or an answer (`structure`). */
  | ({ kind: 'content' } & ContentTextJob);

/** A parsing tool's request as a bulk job (its text goes into the input file). */
export function parseJob(request: ParseRequest, wrap?: string): BulkJob {
  return request.format === 'xml'
    ? { kind: 'parse', format: 'xml', options: request.options, wrap }
    : { kind: 'parse', format: 'csv', options: request.options, wrap };
}

export interface BulkTask {
  job: BulkJob;
  input: string;
  output: string;
}

export type BulkFailure = { failed: { code?: string; message: string } };

/**
 * `written`: the result is in the output file: for a parse, JSON with these top-level keys; for a text, UTF-8 with
 * this many characters. `value`: a small answer, no file.
 */
export type BulkReply =
  | BulkFailure
  | { written: { keys: string[] } }
  | { written: { chars: number; format: ExtractedText['format'] } }
  | { value: unknown };

export async function runBulkTask(task: BulkTask): Promise<BulkReply> {
  const bytes = readFileSync(task.input);
  const { job } = task;
  if (job.kind === 'parse') {
    const text = bytes.toString('utf8');
    const outcome = parseRequest(job.format === 'xml' ? { format: 'xml', text, options: job.options } : { format: 'csv', text, options: job.options });
    if ('failed' in outcome) return outcome;
    const result = parsedOutput(outcome.value, job.wrap);
    writeFileSync(task.output, JSON.stringify(result));
    return { written: { keys: result && typeof result === 'object' ? Object.keys(result) : [] } };
  }
  const outcome = await answerContentText(job, bytes);
  if ('failed' in outcome) return outcome;
  if (job.want === 'structure') return { value: outcome.value };
  const { text, format } = job.want === 'html' ? { text: outcome.value as string, format: 'text' as const } : (outcome.value as ExtractedText);
  writeFileSync(task.output, text);
  return { written: { chars: text.length, format } };
}
