import { readFileSync, writeFileSync } from 'node:fs';
import { answerContentText, type ContentTextJob } from '../../content/parsedText';
import { chunkText, type Chunk } from '../../content/chunking';
import { builtInProviderOf } from '../../embeddings/builtIn';
import { flatBytes, flatten } from '../../embeddings/flatVectors';
import type { ExtractedText } from '../../content/extractors';
import { parsedOutput, parseRequest, type OutputShape, type ParseFormat } from '../../textParsers';

/**
 * Work of the data lane whose input and result are files (bulkFiles.ts tells why): the process reads the input,
 * does the work and writes the result; the answer over the channel is a few bytes.
 */
export type BulkJob =
  /** The parsing tools: the file holds the text; the result is the tool's output as JSON (textParsers.ts, parsedOutput). */
  | { kind: 'parse'; parse: ParseFormat; shape: OutputShape }
  /** Content processing: the file holds the original; the result is the text (`text`, `html`) or an answer (`structure`, `stats`). */
  | ({ kind: 'content' } & ContentTextJob)
  /** Content processing's chunk step: the file holds the extracted text; the result is the chunks as JSON. */
  | { kind: 'chunks'; size: number; overlap: number }
  /**
   * The embed step with a built-in embedder (`model`, builtIn.ts): the file holds the chunks as JSON; the result is
   * their vectors as raw floats (flatVectors.ts).
   */
  | { kind: 'embed'; model: string };

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
  | { written: { chunks: number } }
  | { written: { vectors: number; dimensions: number } }
  | { value: unknown };

export async function runBulkTask(task: BulkTask): Promise<BulkReply> {
  const bytes = readFileSync(task.input);
  const { job } = task;
  if (job.kind === 'parse') {
    const outcome = parseRequest({ ...job.parse, text: bytes.toString('utf8') });
    if ('failed' in outcome) return outcome;
    const result = parsedOutput(outcome.value, job.shape);
    let json: string;
    try {
      json = JSON.stringify(result);
    } catch (err) {
      // JSON.parse takes nesting that JSON.stringify's recursion does not: a value no run could store either.
      if (err instanceof RangeError) return { failed: { code: 'TOO_DEEP', message: 'the parsed value is nested too deeply to store' } };
      throw err;
    }
    writeFileSync(task.output, json);
    return { written: { keys: result && typeof result === 'object' ? Object.keys(result) : [] } };
  }
  if (job.kind === 'chunks') {
    const chunks = chunkText(bytes.toString('utf8'), job.size, job.overlap);
    writeFileSync(task.output, JSON.stringify(chunks));
    return { written: { chunks: chunks.length } };
  }
  if (job.kind === 'embed') {
    const provider = builtInProviderOf(job.model);
    if (!provider) return { failed: { message: `${job.model} is not a built-in embedding model` } };
    const chunks = JSON.parse(bytes.toString('utf8')) as Chunk[];
    const flat = flatten(await provider.embed(chunks.map((chunk) => chunk.text), 'document'), provider.dimensions);
    writeFileSync(task.output, flatBytes(flat));
    return { written: { vectors: flat.count, dimensions: flat.dimensions } };
  }
  const outcome = await answerContentText(job, bytes);
  if ('failed' in outcome) return outcome;
  if (job.want === 'structure' || job.want === 'stats') return { value: outcome.value };
  const { text, format } = job.want === 'html' ? { text: outcome.value as string, format: 'text' as const } : (outcome.value as ExtractedText);
  writeFileSync(task.output, text);
  return { written: { chars: text.length, format } };
}
