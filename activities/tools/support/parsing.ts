import { ExpressionError, INLINE_PARSE_CHARS, PARSE_DEADLINE_MS, parseJob, runBulk } from '../../../lib/expressions/sandbox';
import { encodeUtf8 } from '../../../lib/largeBytes';
import { SerializedJson } from '../../../lib/serializedJson';
import { parsedOutput, parseRequest, type ParseRequest } from '../../../lib/textParsers';
import { NonRetryableToolError } from '../types';

/**
 * The parsing tools' one call, answering the tool's output: the parsed value under `wrap` (xml_parse's `result`), or
 * the value itself (csv_parse's rows, count and columns). Small texts are parsed in place. Large ones are parsed in
 * the expression sandbox's data lane (off the worker's event loop, under a deadline and a heap cap, in the
 * organization's share of the lane), and their output comes back serialized (lib/serializedJson.ts): the worker
 * stores it as it is instead of holding its loop to parse and serialize it again. A text the parser refuses, or one
 * too slow or too large to parse, fails the node for good; a sandbox that failed to start is retried like any other
 * transient failure.
 */
export async function parseForTool(request: ParseRequest, organizationId: string, wrap?: string): Promise<unknown> {
  if (request.text.length <= INLINE_PARSE_CHARS) {
    const outcome = parseRequest(request);
    if ('failed' in outcome) throw new NonRetryableToolError(outcome.failed.code, outcome.failed.message);
    return parsedOutput(outcome.value, wrap);
  }
  try {
    const { reply, result } = await runBulk(parseJob(request, wrap), await encodeUtf8(request.text), PARSE_DEADLINE_MS, organizationId);
    if ('failed' in reply) throw new NonRetryableToolError(reply.failed.code ?? 'PARSE_FAILED', reply.failed.message);
    if (!('written' in reply) || !('keys' in reply.written) || !result) throw new Error('the parser answered without its output');
    return new SerializedJson(result, reply.written.keys);
  } catch (err) {
    if (err instanceof ExpressionError && err.code === 'EXPRESSION_TIMEOUT') {
      throw new NonRetryableToolError('PARSE_TIMEOUT', `parsing the text took too long and was stopped (${err.message})`);
    }
    if (err instanceof ExpressionError && (err.code === 'EXPRESSION_TOO_COMPLEX' || err.code === 'EXPRESSION_LIMIT')) {
      throw new NonRetryableToolError('PARSE_TOO_COMPLEX', 'parsing the text needed more memory than the sandbox allows and was stopped');
    }
    throw err;
  }
}
