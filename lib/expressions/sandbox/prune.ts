import { ExpressionError } from '../errors';
import { referencesAndBindings, scanTemplates } from '../templates';

/**
 * The part of an evaluation context an expression can read, so a condition over `nodes.check.status` does not copy
 * every node's output into the sandbox process. Built from the expression's reference chains: a chain copies the
 * value at its end whole; a value that is not a plain object (a list, a scalar) is copied whole where a chain
 * enters it. Dynamic keys (`a[k]`) make their receiver a chain of its own, so it is copied whole too. When a macro
 * variable shares its name with a context root the whole context is kept (the two cannot be told apart here).
 */

interface Trie {
  whole: boolean;
  children: Map<string, Trie>;
}

const newTrie = (): Trie => ({ whole: false, children: new Map() });

/** Reference analysis by expression text; conditions repeat across nodes and runs. */
const analyses = new Map<string, { chains: string[][]; bound: Set<string> } | null>();
const MAX_CACHED = 2000;

function analysisOf(expression: string): { chains: string[][]; bound: Set<string> } | null {
  if (analyses.has(expression)) return analyses.get(expression)!;
  let analysis: { chains: string[][]; bound: Set<string> } | null;
  try {
    analysis = referencesAndBindings(expression);
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    analysis = null; // invalid: the sandbox reports it with the whole (unread) context
  }
  if (analyses.size >= MAX_CACHED) analyses.delete(analyses.keys().next().value!);
  analyses.set(expression, analysis);
  return analysis;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function take(value: unknown, node: Trie): unknown {
  if (node.whole || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of node.children) {
    if (Object.prototype.hasOwnProperty.call(value, key)) out[key] = take(value[key], child);
  }
  return out;
}

/** The context restricted to what the expressions reference; the context itself when that cannot be decided. */
export function contextFor(expressions: string[], context: Record<string, unknown>): Record<string, unknown> {
  const root = newTrie();
  for (const expression of expressions) {
    const analysis = analysisOf(expression);
    if (!analysis) return context;
    for (const name of analysis.bound) if (Object.prototype.hasOwnProperty.call(context, name)) return context;
    for (const chain of analysis.chains) {
      let node = root;
      for (const step of chain) {
        let child = node.children.get(step);
        if (!child) node.children.set(step, (child = newTrie()));
        node = child;
      }
      node.whole = true;
    }
  }
  return take(context, root) as Record<string, unknown>;
}

/** The expressions of every template in a value, or null when some template is invalid (reported by the render). */
export function templateExpressions(value: unknown): string[] | null {
  const { templates, problems } = scanTemplates(value);
  return problems.length > 0 ? null : templates.map((t) => t.expression);
}
