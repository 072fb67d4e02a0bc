import jsonata from 'jsonata';
import { ExpressionError } from './errors';
import { DEFAULT_JSONATA_LIMITS } from './limits';
import { compileRegex } from './sandbox/regex';

/**
 * Whether a JSONata expression parses, checked at save (docs/workflows.md#validation): the syntax error as the run
 * would report it (`EXPRESSION_INVALID`), with its position, or null. Regex literals are compiled as the sandbox
 * runs them (RE2: no backreferences or lookaround). Parsing only: nothing is evaluated, and the cost is bounded by
 * the length limit (~3 ms for 7.6 kB); definitions with many long expressions are checked off the API's loop
 * (domain/workflows/validationThread.ts).
 */
export function jsonataSyntaxProblem(expression: string, maxLength = DEFAULT_JSONATA_LIMITS.maxExpressionLength): string | null {
  if (expression.length > maxLength) return `expression longer than ${maxLength} characters`;
  let ast: unknown;
  try {
    ast = jsonata(expression).ast();
  } catch (err) {
    const e = err as { message?: unknown; position?: unknown };
    const at = typeof e.position === 'number' ? ` at character ${e.position}` : '';
    return `invalid JSONata${at}: ${typeof e.message === 'string' ? e.message : 'syntax error'}`;
  }
  return regexProblem(ast, 0);
}

/** The first regex literal of the tree that RE2 refuses (JSONata's parser builds them with the JavaScript engine). */
function regexProblem(node: unknown, depth: number): string | null {
  if (!node || typeof node !== 'object' || depth > 500) return null;
  const n = node as { type?: unknown; value?: unknown };
  if (n.type === 'regex' && n.value instanceof RegExp) {
    try {
      compileRegex(n.value.source, n.value.flags.replace(/g/g, ''));
    } catch (err) {
      if (err instanceof ExpressionError) return err.message;
      throw err;
    }
  }
  for (const value of Object.values(node)) {
    const list = Array.isArray(value) ? value : [value];
    for (const child of list) {
      const found = regexProblem(child, depth + 1);
      if (found) return found;
    }
  }
  return null;
}
