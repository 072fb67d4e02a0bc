import type { ASTNode } from '@marcbachmann/cel-js';
import type { ErrorDetail } from '../errors';
import { isParameterRoot, NODES_ROOT, PARAMETER_ROOTS, RESERVED_ROOTS } from '../dag/parameterRoots';
import { checkExpression, evaluateExpression, parseExpression } from './cel';
import { ExpressionError } from './errors';
import { DEFAULT_EXPRESSION_LIMITS, MAX_TEMPLATES_PER_VALUE, MAX_VALUE_DEPTH, type ExpressionLimits } from './limits';

/**
 * `${...}` templates inside string values. A string that is exactly one template (`"${nodes.fetch.body}"`) keeps
 * the value's type; templates embedded in text are stringified (strings as is, null as "", others as JSON).
 * `$${` writes a literal `${`. Inside a template is a CEL expression over the context built by
 * `expressionContext`: `params.<name>`, `nodes.<id>.<output>`, `<id>.<output>` and loop iterators.
 */

export type TemplateSegment = { text: string } | { expression: string };

/** Splits a string into literal text and template expressions. Throws ExpressionError for an unclosed `${`. */
export function parseTemplateString(input: string): TemplateSegment[] {
  const segments: TemplateSegment[] = [];
  let text = '';
  let i = 0;
  while (i < input.length) {
    if (input.startsWith('$${', i)) {
      text += '${';
      i += 3;
      continue;
    }
    if (!input.startsWith('${', i)) {
      text += input[i];
      i++;
      continue;
    }
    // Find the closing brace, skipping braces inside CEL string literals and map literals.
    let depth = 1;
    let quote: string | null = null;
    let j = i + 2;
    for (; j < input.length && depth > 0; j++) {
      const ch = input[j]!;
      if (quote) {
        if (ch === '\\') j++;
        else if (ch === quote) quote = null;
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '{') depth++;
      else if (ch === '}') depth--;
    }
    if (depth > 0) throw new ExpressionError('EXPRESSION_INVALID', `unclosed \${ at character ${i}`);
    if (text) segments.push({ text });
    text = '';
    segments.push({ expression: input.slice(i + 2, j - 1).trim() });
    i = j;
  }
  if (text || segments.length === 0) segments.push({ text });
  return segments;
}

/** True when some string of the value holds a template (an unclosed `${` counts: it is an invalid template). */
export function hasTemplates(value: unknown): boolean {
  let found = false;
  try {
    walkStrings(value, '', (s) => {
      if (found || !s.includes('${')) return;
      try {
        found = parseTemplateString(s).some((seg) => 'expression' in seg);
      } catch {
        found = true;
      }
    });
  } catch {
    return true; // too deep to inspect: treated as dynamic; scanTemplates reports the depth problem
  }
  return found;
}

/** Calls `visit` for every string in a JSON value with its path; bounded depth, no recursion into cycles. */
function walkStrings(value: unknown, path: string, visit: (s: string, path: string) => void, depth = 0): void {
  if (depth > MAX_VALUE_DEPTH) throw new ExpressionError('EXPRESSION_LIMIT', `value nested deeper than ${MAX_VALUE_DEPTH}`);
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => walkStrings(v, `${path}[${i}]`, visit, depth + 1));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walkStrings(v, path ? `${path}.${k}` : k, visit, depth + 1);
  }
}

export interface FoundTemplate {
  path: string;
  expression: string;
}

/** Every template of a value with its path, and the problems of the invalid ones (save-time check). */
export function scanTemplates(
  value: unknown,
  basePath = '',
  limits: ExpressionLimits = DEFAULT_EXPRESSION_LIMITS,
): { templates: FoundTemplate[]; problems: ErrorDetail[] } {
  const templates: FoundTemplate[] = [];
  const problems: ErrorDetail[] = [];
  try {
    walkStrings(value, basePath, (s, path) => {
      if (!s.includes('${')) return;
      let segments: TemplateSegment[];
      try {
        segments = parseTemplateString(s);
      } catch (err) {
        problems.push({ path, problem: (err as Error).message });
        return;
      }
      for (const seg of segments) {
        if (!('expression' in seg)) continue;
        if (templates.length >= MAX_TEMPLATES_PER_VALUE) {
          problems.push({ path, problem: `more than ${MAX_TEMPLATES_PER_VALUE} templates` });
          return;
        }
        const check = checkExpression(seg.expression, limits);
        if (check.ok) templates.push({ path, expression: seg.expression });
        else for (const problem of check.problems) problems.push({ path, problem: `\${${clip(seg.expression)}}: ${problem}` });
      }
    });
  } catch (err) {
    problems.push({ path: basePath || '(value)', problem: (err as Error).message });
  }
  return { templates, problems };
}

/** Save-time check of every template in a value. */
export function checkTemplates(value: unknown, basePath = ''): ErrorDetail[] {
  return scanTemplates(value, basePath).problems;
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

// ---- references ----

export type ExpressionReference =
  | { kind: 'param'; name: string | null; path: string; expression: string }
  | { kind: 'node'; nodeId: string; output: string | null; path: string; expression: string }
  /** a bare name: a node id (`fetch.body`) or a loop iterator, resolved by the validator */
  | { kind: 'name'; name: string; field: string | null; path: string; expression: string };

const COMPREHENSIONS = new Set(['map', 'filter', 'all', 'exists', 'exists_one']);

/** `a.b["c"]` -> ['a', 'b', 'c']; null when the chain is not rooted at a plain identifier. */
function chainOf(node: ASTNode): string[] | null {
  const fields: string[] = [];
  let current: ASTNode = node;
  for (;;) {
    if (current.op === 'id') return [current.args, ...fields.reverse()];
    if (current.op === '.' || current.op === '.?') {
      fields.push(current.args[1]);
      current = current.args[0];
    } else if ((current.op === '[]' || current.op === '[?]') && current.args[1].op === 'value' && typeof current.args[1].args === 'string') {
      fields.push(current.args[1].args);
      current = current.args[0];
    } else return null;
  }
}

function children(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const add = (v: unknown): void => {
    if (v && typeof v === 'object' && 'op' in (v as object)) out.push(v as ASTNode);
    else if (Array.isArray(v)) v.forEach(add);
  };
  if (node.op === 'id' || node.op === 'value') return out;
  if (node.op === '.' || node.op === '.?') return [node.args[0]];
  add(node.args as unknown);
  return out;
}

/** The references (chains rooted at an identifier) one expression makes, macro variables excluded. */
export function referencesOfExpression(expression: string): string[][] {
  return referencesAndBindings(expression).chains;
}

/** The references of an expression and the names its macros bind (`items.map(x, ...)` binds `x`). */
export function referencesAndBindings(expression: string): { chains: string[][]; bound: Set<string> } {
  const ast = parseExpression(expression);
  const bound = new Set<string>();
  const all: ASTNode[] = [];
  const stack = [ast];
  while (stack.length) {
    const node = stack.pop()!;
    all.push(node);
    if (node.op === 'rcall' && COMPREHENSIONS.has(node.args[0]) && node.args[2][0]?.op === 'id') {
      bound.add(node.args[2][0].args);
    }
    stack.push(...children(node));
  }
  const chains: string[][] = [];
  const inChain = new Set<ASTNode>();
  for (const node of all) {
    if (inChain.has(node)) continue;
    const chain = chainOf(node);
    if (!chain) continue;
    // Mark the inner nodes so `a.b.c` is reported once, not also as `a.b` and `a`.
    let inner: ASTNode = node;
    while (inner.op !== 'id') {
      inner = (inner.args as [ASTNode, unknown])[0];
      inChain.add(inner);
    }
    if (!bound.has(chain[0]!)) chains.push(chain);
  }
  return { chains, bound };
}

/** Every reference of every valid template in a value (invalid templates are reported by checkTemplates). */
export function findReferences(value: unknown, basePath = ''): ExpressionReference[] {
  const refs: ExpressionReference[] = [];
  for (const { path, expression } of scanTemplates(value, basePath).templates) {
    for (const chain of referencesOfExpression(expression)) refs.push(classify(chain, path, expression));
  }
  return refs;
}

/** Classifies a reference chain: `params.x` / `parameters.x`, `nodes.<id>.<output>`, or a bare `<name>.<field>`. */
export function classify(chain: string[], path: string, expression: string): ExpressionReference {
  const [root, first, second] = chain as [string, string | undefined, string | undefined];
  if (isParameterRoot(root)) return { kind: 'param', name: first ?? null, path, expression };
  if (root === NODES_ROOT && first) return { kind: 'node', nodeId: first, output: second ?? null, path, expression };
  return { kind: 'name', name: root, field: first ?? null, path, expression };
}

// ---- rendering ----

/** Names bound in every expression context besides node ids. */
export const RESERVED_CONTEXT_NAMES: ReadonlySet<string> = RESERVED_ROOTS;

/**
 * The evaluation context: `params` (alias `parameters`), `nodes` (id -> outputs), every node id at the top level
 * too (unless it collides with a reserved or local name), and `locals` (loop iterator, ...).
 */
export function expressionContext(input: {
  params: Record<string, unknown>;
  nodes: Record<string, unknown>;
  locals?: Record<string, unknown>;
}): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  for (const [id, outputs] of Object.entries(input.nodes)) {
    if (!RESERVED_CONTEXT_NAMES.has(id)) context[id] = outputs;
  }
  Object.assign(context, input.locals ?? {});
  for (const root of PARAMETER_ROOTS) context[root] = input.params;
  context[NODES_ROOT] = input.nodes;
  return context;
}

function stringify(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function renderString(input: string, context: Record<string, unknown>, limits: Partial<ExpressionLimits>): unknown {
  if (!input.includes('${')) return input;
  const segments = parseTemplateString(input);
  const only = segments.length === 1 ? segments[0]! : null;
  if (only && 'expression' in only) return evaluateExpression(only.expression, context, limits);
  return segments
    .map((seg) => ('expression' in seg ? stringify(evaluateExpression(seg.expression, context, limits)) : seg.text))
    .join('');
}

/**
 * Renders every template in a JSON value (deep over objects and arrays), returning a new value. Throws
 * ExpressionError (code EXPRESSION_INVALID / EXPRESSION_FAILED / EXPRESSION_LIMIT) naming the failing path.
 */
export function renderTemplates<T = unknown>(
  value: T,
  context: Record<string, unknown>,
  limits: Partial<ExpressionLimits> = {},
): unknown {
  const render = (v: unknown, path: string, depth: number): unknown => {
    if (depth > MAX_VALUE_DEPTH) throw new ExpressionError('EXPRESSION_LIMIT', `value nested deeper than ${MAX_VALUE_DEPTH}`);
    if (typeof v === 'string') {
      try {
        return renderString(v, context, limits);
      } catch (err) {
        if (err instanceof ExpressionError) throw new ExpressionError(err.code, `${path || '(value)'}: ${err.message}`);
        throw err;
      }
    }
    if (Array.isArray(v)) return v.map((item, i) => render(item, `${path}[${i}]`, depth + 1));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) {
        if (k === '__proto__') continue;
        out[k] = render(item, path ? `${path}.${k}` : k, depth + 1);
      }
      return out;
    }
    return v;
  };
  return render(value, '', 0);
}
