/**
 * Expressions of workflows: CEL conditions and `${...}` templates. Checked when a workflow is saved (lib/dag
 * validation) and evaluated in activities, never in workflow code, so an evaluator upgrade cannot break replays.
 */
export { checkExpression, evaluateExpression, nestingDepth, parseExpression, type ExpressionCheck } from './cel';
export { ExpressionError } from './errors';
export { DEFAULT_EXPRESSION_LIMITS, FORBIDDEN_NAMES, type ExpressionLimits } from './limits';
export { isRegexSafe, regexProblem } from './regexSafety';
export {
  checkTemplates,
  expressionContext,
  findReferences,
  hasTemplates,
  parseTemplateString,
  referencesOfExpression,
  renderTemplates,
  RESERVED_CONTEXT_NAMES,
  scanTemplates,
  type ExpressionReference,
  type FoundTemplate,
  type TemplateSegment,
} from './templates';
