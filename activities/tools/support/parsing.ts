import { ExpressionError, INLINE_PARSE_CHARS, PARSE_DEADLINE_MS, runBulk } from '../../../lib/expressions/sandbox';
import { decodeUtf8, encodeUtf8 } from '../../../lib/largeBytes';
import { SerializedJson } from '../../../lib/serializedJson';
import { parsedOutput, parseRequest, type OutputShape, type ParseFormat, type ParseRequest } from '../../../lib/textParsers';
import { NonRetryableToolError } from '../types';

/** A text to parse for a tool: as a string (a tool's input), or as the UTF-8 bytes it arrived in (a file, a response). */
export type ToolParseRequest = ParseFormat & { text: string | Buffer };

/**
 * The parsing tools' one call, answering the tool's output: the parsed value placed as `shape` says (xml_parse's
 * `result`, http_request's `body` beside its status, csv_parse's value itself). Small texts are parsed in place.
 * Large ones are parsed in the expression sandbox's data lane (off the worker's event loop, under a deadline and a
 * heap cap, in the organization's share of the lane), and their output comes back serialized
 * (lib/serializedJson.ts): the worker stores it as it is instead of holding its loop to parse and serialize it
 * again. A text the parser refuses, or one too slow or too large to parse, fails the node for good (a
 * NonRetryableToolError with the parser's code); a sandbox that failed to start is retried like any other transient
 * failure.
 */
export async function parseForTool(request: ToolParseRequest, organizationId: string, shape: OutputShape = {}): Promise<unknown> {
  const { text, ...format } = request;
  if (text.length <= INLINE_PARSE_CHARS) {
    const outcome = parseRequest({ ...format, text: typeof text === 'string' ? text : await decodeUtf8(text) } as ParseRequest);
    if ('failed' in outcome) throw new NonRetryableToolError(outcome.failed.code, outcome.failed.message);
    return parsedOutput(outcome.value, shape);
  }
  try {
    const bytes = typeof text === 'string' ? await encodeUtf8(text) : text;
    const { reply, result } = await runBulk({ kind: 'parse', parse: format as ParseFormat, shape }, bytes, PARSE_DEADLINE_MS, organizationId);
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
