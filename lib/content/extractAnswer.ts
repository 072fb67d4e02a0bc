import { readFile } from 'node:fs/promises';
import { ExpressionError } from '../expressions/errors';
import { evaluateJsonata } from '../expressions/sandbox/jsonata';
import { regexMatches } from '../expressions/sandbox/regex';
import { PermanentContentError } from './errors';
import type { ExtractJobReply, ExtractJobRequest } from './extractJob';
import { extractText, structuredData, type ExtractedText } from './extractors';

/**
 * The answer to one on-demand extraction over its temporary file: run by the extraction thread (extractWorker.ts) for
 * text, regex and field queries, and by the expression sandbox's process (sandbox/engines.ts) for JSONata, which can
 * make V8 abort a whole process (an array past its maximum length), threads included.
 */
const MAX_RESULT_CHARS = 1_000_000;

async function textOf(request: ExtractJobRequest): Promise<ExtractedText> {
  const bytes = await readFile(request.file);
  if (request.kind === 'text') return { text: bytes.toString('utf8'), format: request.format ?? 'text' };
  return extractText(bytes, request.mime);
}

function limitSize(value: unknown): unknown {
  const size = JSON.stringify(value ?? null).length;
  if (size > MAX_RESULT_CHARS) throw new PermanentContentError(`result of ${size} characters exceeds ${MAX_RESULT_CHARS}; narrow the query`, 'RESULT_TOO_LARGE');
  return value;
}

/** `a.b[0].c` style path; a missing step gives null. */
export function pick(data: unknown, path: string): unknown {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let value: unknown = data;
  for (const step of steps) {
    if (value === null || value === undefined) return null;
    if (step.startsWith('[')) value = Array.isArray(value) ? value[Number(step.slice(1, -1))] : undefined;
    else if (Object.prototype.hasOwnProperty.call(value, step)) value = (value as Record<string, unknown>)[step];
    else return null;
  }
  return value ?? null;
}

async function answer(request: ExtractJobRequest): Promise<unknown> {
  const { query } = request;
  switch (query.type) {
    case 'text': {
      const { text, format } = await textOf(request);
      const truncated = text.length > query.maxChars;
      return { text: truncated ? text.slice(0, query.maxChars) : text, truncated, format };
    }
    case 'regex':
      return regexMatches((await textOf(request)).text, query.pattern, query.flags, query.maxMatches);
    case 'fields': {
      const data = structuredData(await readFile(request.file), request.mime);
      const result: Record<string, unknown> = {};
      for (const field of query.fields) {
        result[field] = Array.isArray(data) && request.mime === 'text/csv' ? data.map((r) => (r as Record<string, unknown>)[field] ?? null) : pick(data, field);
      }
      return limitSize(result);
    }
    case 'jsonata':
      return limitSize(await evaluateJsonata(query.expression, structuredData(await readFile(request.file), request.mime), {}, query.limits));
  }
}

/** The reply for the thread or the sandbox: never throws; what the file or the query refuses keeps its stable code. */
export function answerExtractJob(request: ExtractJobRequest): Promise<ExtractJobReply> {
  return answer(request).then(
    (result): ExtractJobReply => ({ ok: true, result }),
    (err: unknown): ExtractJobReply => {
      // Anything that is not a refusal with a code is answered `failed`, without a stack.
      if (err instanceof ExpressionError) return { ok: false, code: err.code, message: err.message };
      if (err instanceof PermanentContentError) return { ok: false, code: err.code ?? 'UNPROCESSABLE', message: err.message };
      return { ok: false, code: 'EXTRACT_FAILED', message: `extracting from the file failed: ${err instanceof Error ? err.message : String(err)}` };
    },
  );
}
