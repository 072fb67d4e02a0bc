/**
 * Expressions of workflows: CEL conditions and `${...}` templates. Checked when a workflow is saved (lib/dag
 * validation) and evaluated in activities, never in workflow code, so an evaluator upgrade cannot break replays.
 * This entry point is parse-and-check only (no sandbox, no evaluation): evaluation goes through the sandbox,
 * lib/expressions/sandbox, which can stop a runaway expression.
 */
export { checkExpression, nestingDepth, parseExpression, type ExpressionCheck } from './cel';
export { ExpressionError, type ExpressionErrorCode } from './errors';
export {
  DEFAULT_EXPRESSION_LIMITS,
  DEFAULT_JSONATA_LIMITS,
  FORBIDDEN_NAMES,
  REGEX_LIMITS,
  type ExpressionLimits,
  type JsonataLimits,
} from './limits';
export { isRegexSafe, regexProblem } from './regexSafety';
export {
  checkTemplates,
  expressionContext,
  findReferences,
  hasTemplates,
  parseTemplateString,
  referencesOfExpression,
  RESERVED_CONTEXT_NAMES,
  scanTemplates,
  type ExpressionReference,
  type FoundTemplate,
  type TemplateSegment,
} from './templates';
