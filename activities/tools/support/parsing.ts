import { ExpressionError, parseText } from '../../../lib/expressions/sandbox';
import { TextParseError, type ParseRequest } from '../../../lib/textParsers';
import { NonRetryableToolError } from '../types';

/**
 * The parsing tools' one call: small texts are parsed in place, large ones in the expression sandbox's data lane
 * (off the worker's event loop, under a deadline and a heap cap, in the organization's share of the lane). A text the
 * parser refuses, or one too slow or too large to parse, fails the node for good; a sandbox that failed to start is
 * retried like any other transient failure.
 */
export async function parseForTool(request: ParseRequest, organizationId: string): Promise<unknown> {
  try {
    return await parseText(request, organizationId);
  } catch (err) {
    if (err instanceof TextParseError) throw new NonRetryableToolError(err.code, err.message);
    if (err instanceof ExpressionError && err.code === 'EXPRESSION_TIMEOUT') {
      throw new NonRetryableToolError('PARSE_TIMEOUT', `parsing the text took too long and was stopped (${err.message})`);
    }
    if (err instanceof ExpressionError && (err.code === 'EXPRESSION_TOO_COMPLEX' || err.code === 'EXPRESSION_LIMIT')) {
      throw new NonRetryableToolError('PARSE_TOO_COMPLEX', 'parsing the text needed more memory than the sandbox allows and was stopped');
    }
    throw err;
  }
}
