import type { z } from 'zod';
import type { ErrorDetail } from './errors';
import { echo } from './echo';
import { didYouMean } from './suggest';

/**
 * zod issues as error details: the one way every layer reports them (HTTP input in api/http/mount.ts, workflow
 * bodies and definitions, node configs, parameter declarations, triggers), so a client sees one shape whatever
 * refused its input. Pure and free of imports with side effects: lib/dag (bundled into workflow code) uses it.
 *
 * - `path`: the prefix, then the issue's path; fields joined by `.`, array indexes as `[n]`
 *   (`dag.nodes.b.config.inputs[1].from`, `body.members[0].role`).
 * - An unrecognized key (strict objects) is one detail per key at its own path, `unknown field`, rather than
 *   zod's one message for all of them at the parent's path. Given the schema that refused the value, the problem
 *   names the closest known field: `unknown field (did you mean "name"?)`, for the first MAX_FIELD_HINTS unknown
 *   keys of the error only (a 1 MB body holds ~100,000 short keys, each hint a few edit distances).
 * - Client input quoted in a path (a key, a record's key) is cut to its first characters (lib/echo.ts), and an error
 *   gives at most MAX_DETAILS details.
 */
export function zodIssueDetails(error: z.ZodError, prefix = '', schema?: z.ZodType): ErrorDetail[] {
  let hints = 0;
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    if (details.length >= MAX_DETAILS) break;
    if (issue.code !== 'unrecognized_keys') {
      details.push({ path: detailPath(prefix, issue.path), problem: issue.message });
      continue;
    }
    const known = schema ? knownKeys(schema, issue.path) : [];
    // One detail per key up to the cap, then one for the rest: 75,000 unknown keys built 75,000 details (0.5-0.9 s).
    const room = MAX_DETAILS - details.length;
    for (const key of issue.keys.slice(0, room)) {
      details.push({ path: detailPath(prefix, [...issue.path, key]), problem: `unknown field${hints++ < MAX_FIELD_HINTS ? didYouMean(key, known) : ''}` });
    }
    const rest = issue.keys.length - room;
    if (rest > 0) details.push({ path: detailPath(prefix, issue.path), problem: `and ${rest} more unknown field${rest === 1 ? '' : 's'}` });
  }
  return details;
}

/** Details one error gives at most (then one that counts the rest of its unknown keys); the envelope shows 200. */
export const MAX_DETAILS = 200;

/** Unknown keys of one error that get a "did you mean" hint; a person fixes the first few first anyway. */
export const MAX_FIELD_HINTS = 20;

/** The structural parts of a zod 4 schema definition that lead from a value to its object keys. */
interface SchemaDef {
  type: string;
  shape?: Record<string, SchemaLike>;
  innerType?: SchemaLike;
  element?: SchemaLike;
  valueType?: SchemaLike;
  options?: readonly SchemaLike[];
  in?: SchemaLike;
  left?: SchemaLike;
  right?: SchemaLike;
  getter?: () => SchemaLike;
}
interface SchemaLike {
  _zod: { def: SchemaDef };
}

/** The keys the object schemas at `path` declare (every union member's, where the path goes through a union). */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  const visit = (node: SchemaLike | undefined, depth: number, guard: number): void => {
    if (!node || guard > 64) return;
    const def = node._zod.def;
    const wrapped = def.innerType ?? def.in ?? def.getter?.();
    if (wrapped && def.type !== 'array') return visit(wrapped, depth, guard + 1);
    if (def.type === 'union' && def.options) return def.options.forEach((option) => visit(option, depth, guard + 1));
    if (def.type === 'intersection') {
      visit(def.left, depth, guard + 1);
      return visit(def.right, depth, guard + 1);
    }
    if (depth === path.length) {
      if (def.type === 'object' && def.shape) Object.keys(def.shape).forEach((key) => keys.add(key));
      return;
    }
    const segment = path[depth];
    if (def.type === 'object' && def.shape && typeof segment === 'string') return visit(def.shape[segment], depth + 1, guard + 1);
    if (def.type === 'array') return visit(def.element, depth + 1, guard + 1);
    if (def.type === 'record') return visit(def.valueType, depth + 1, guard + 1);
  };
  visit(schema as unknown as SchemaLike, 0, 0);
  return [...keys];
}

/** `prefix` and `segments` as a detail path: `a.b[0].c`; an empty prefix or segment adds nothing. */
export function detailPath(prefix: string, segments: readonly PropertyKey[]): string {
  return [prefix, ...segments.map((segment) => (typeof segment === 'number' ? `[${segment}]` : echo(String(segment))))]
    .filter(Boolean)
    .join('.')
    .replace(/\.\[/g, '[');
}
