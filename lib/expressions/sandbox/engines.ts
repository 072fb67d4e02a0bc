import { evaluateExpression } from '../cel';
import { ExpressionError, internalFailure } from '../errors';
import { renderTemplates } from '../templates';
import { evaluateJsonata } from './jsonata';
import { writeFileSync } from 'node:fs';
import { LARGE_RESULT_CHARS, ResultInFile, type SandboxTask } from './protocol';
import { regexMatches } from './regex';
import { runBulkTask } from './bulk';
import { answerExtractJob } from '../../content/extractAnswer';

/** A result as it is, or, past LARGE_RESULT_CHARS of JSON, written to `file` (protocol.ts). */
function resultOrFile(result: unknown, file: string): unknown {
  if (result === undefined) return result;
  const json = JSON.stringify(result);
  if (json.length <= LARGE_RESULT_CHARS) return result;
  writeFileSync(file, json);
  return new ResultInFile(json.length);
}

/**
 * Runs one task in the calling thread. Inside a sandbox process this is what the deadline can stop; unit tests call
 * it directly to check the engines' own limits. Every failure leaves as an ExpressionError with a clear message.
 */
export async function runTask(task: SandboxTask): Promise<unknown> {
  try {
    switch (task.op) {
      case 'cel':
        return evaluateExpression(task.text, task.context, task.limits);
      case 'render':
        return renderTemplates(task.value, task.context, task.limits);
      case 'jsonata': {
        const result = await evaluateJsonata(task.expression, task.data, task.bindings, task.limits);
        return task.resultFile ? resultOrFile(result, task.resultFile) : result;
      }
      case 'regex':
        return regexMatches(task.text, task.pattern, task.flags, task.maxMatches);
      case 'bulk':
        return await runBulkTask(task);
      case 'extract':
        return await answerExtractJob(task.request);
    }
  } catch (err) {
    throw err instanceof ExpressionError ? err : internalFailure(err);
  }
}
